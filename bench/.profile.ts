import { writeFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../scripts/chromium.mjs';

const [url, session, out] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: findChromium()!,
  args: ['--no-sandbox', '--disable-background-networking'],
  headless: true,
});
const page = await browser.newPage();
await page.setViewport({ width: 412, height: 823 });
if (session && session !== '-')
  await page.evaluateOnNewDocument((v: string) => {
    try {
      sessionStorage.setItem('tachyon.session', v);
    } catch {}
  }, session);
if (process.env.BLOCK) {
  await page.setRequestInterception(true);
  page.on('request', (r) => (r.url().includes(process.env.BLOCK!) ? r.abort() : r.continue()));
}
const cdp = await page.createCDPSession();
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(url!, { waitUntil: 'networkidle0' });
await new Promise((r) => setTimeout(r, 1500));
const { profile } = await cdp.send('Profiler.stop');
writeFileSync(out!, JSON.stringify(profile));
// self time by function
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas!;
const counts = new Map<number, number>();
profile.samples!.forEach((id: number, i: number) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, t] of counts) {
  const n: any = byId.get(id);
  const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\//, '')}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + t / 1000);
}
const files = new Map<string, number>();
let busy = 0;
for (const [id, t] of counts) {
  const n: any = byId.get(id);
  const k = n.callFrame.url.replace(/.*\//, '') || n.callFrame.functionName;
  files.set(k, (files.get(k) ?? 0) + t / 1000);
  if (n.callFrame.functionName !== '(idle)') busy += t / 1000;
}
console.log(
  'busy',
  busy.toFixed(0),
  [...files]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, v]) => `${k}=${v.toFixed(0)}`)
    .join(' '),
);
if (process.env.TOP)
  console.log(
    [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k, v]) => `${v.toFixed(0).padStart(6)} ms ${k}`)
      .join('\n'),
  );
await browser.close();
