import { writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../scripts/chromium.mjs';

const [url, session, out] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: findChromium()!,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
const page = await browser.newPage();
if (session && session !== '-')
  await page.evaluateOnNewDocument((v: string) => {
    try {
      sessionStorage.setItem('tachyon.session', v);
    } catch {}
  }, session);
const r = await lighthouse(
  url,
  { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
  undefined,
  page,
);
writeFileSync(out!, JSON.stringify(r!.lhr));
const a = r!.lhr.audits;
console.log(
  'score',
  r!.lhr.categories.performance!.score,
  'FCP',
  a['first-contentful-paint']!.numericValue,
  'LCP',
  a['largest-contentful-paint']!.numericValue,
  'TBT',
  a['total-blocking-time']!.numericValue,
  'CLS',
  a['cumulative-layout-shift']!.numericValue,
  'SI',
  a['speed-index']!.numericValue,
);
for (const id of [
  'largest-contentful-paint-element',
  'layout-shifts',
  'long-tasks',
  'bootup-time',
  'render-blocking-insight',
  'lcp-breakdown-insight',
  'cls-culprits-insight',
  'lcp-phases-insight',
]) {
  const d = a[id]?.details as any;
  if (!d) continue;
  console.log('--', id, JSON.stringify(d.items ?? d, null, 0).slice(0, 1500));
}
await browser.disconnect();
chrome.kill();
