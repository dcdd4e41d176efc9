import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result, snapshot } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { findChromium } from '../scripts/chromium.mjs';
import { DEMO_ACCOUNTS, type LoginResult } from '../src/shared/contract/index.ts';
import { type RunningServer, startService } from './processes.ts';
import type { Figure } from './report.ts';

/** Lighthouse's own advice: a score is the median of several runs (its variance is a few points). */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Headless Chromium kept off the network: this machine's closed network refuses its background calls. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const BUDGET = { performance: 95, accessibility: 100, bestPractices: 100, cls: 0.05, desktop: 98 };

interface PageCase {
  name: string;
  path: string;
  signedIn: boolean;
  /**
   * A dialog, judged open: the name of the page's button that opens it. Lighthouse's snapshot of the open dialog
   * scores accessibility and best practices (a snapshot has no load to time; its page's load is measured as a page).
   */
  dialog?: string;
}

interface Scores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits of the failing accessibility and best-practice checks, to say what a miss is. */
  failed: string[];
}

/** The session the sign-in page leaves in the tab's sessionStorage (as e2e/support's signInAs hands it over). */
async function demoSession(url: string): Promise<string> {
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'Admin');
  if (!admin) throw new Error('no demo Admin account');
  const response = await fetch(`${url}/api/Consumer/Authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: admin.userName, Password: admin.password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const result = (await response.json()) as LoginResult;
  return JSON.stringify({
    token: result.Token,
    userName: result.UserName,
    permissions: result.Permissions,
    expiresUtc: result.ExpiresUtc,
    apiVersion: '3.3',
  });
}

async function firstPushUserId(url: string, session: string): Promise<number> {
  const { token } = JSON.parse(session) as { token: string };
  const response = await fetch(`${url}/api/Consumer/PushMessageUsers`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const users = (await response.json()) as { Id: number }[];
  const first = users[0];
  if (!first) throw new Error('the demo data has no push user');
  return first.Id;
}

/** Lighthouse now and then loses a run's trace on a busy machine (NO_NAVSTART): such a run is taken again. */
async function auditWithRetry(...args: Parameters<typeof audit>): Promise<Scores> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(...args);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LighthouseRunError)) throw error;
      console.log(`  ${error.message}; running again`);
    }
  }
}

class LighthouseRunError extends Error {}

/** One Lighthouse run in a tab of its own, with the session put where the app reads it before any script runs. */
async function audit(
  browser: Browser,
  port: number,
  url: string,
  session: string | null,
  formFactor: 'mobile' | 'desktop',
): Promise<Scores> {
  const page = await browser.newPage();
  try {
    if (session) {
      await page.evaluateOnNewDocument((value: string) => {
        try {
          window.sessionStorage.setItem('tachyon.session', value);
        } catch {
          // about:blank, where Lighthouse starts, has no storage.
        }
      }, session);
    }
    const flags: Flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // A signed-in page keeps its live stream open, so the network never goes quiet and Lighthouse waited its whole
      // 45 s default on every run. A page is loaded and idle well within 15 s; its metrics come from the load before.
      maxWaitForLoad: 15_000,
    };
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined, page);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return scoresOf(result.lhr, url, formFactor);
  } finally {
    await page.close();
  }
}

/** The phone Lighthouse's mobile preset emulates (its screenEmulation), for a snapshot taken in a page of our own. */
const MOBILE_SCREEN = { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/** A dialog opened on its page (by its button) in a phone-sized tab, judged by Lighthouse's snapshot mode. */
async function auditDialog(browser: Browser, url: string, session: string | null, button: string): Promise<Scores> {
  const page = await browser.newPage();
  try {
    if (session) {
      await page.evaluateOnNewDocument(
        (value: string) => window.sessionStorage.setItem('tachyon.session', value),
        session,
      );
    }
    await page.setViewport(MOBILE_SCREEN);
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(`::-p-aria([name="${button}"][role="button"])`).click();
    await page.waitForSelector('[role="dialog"]', { visible: true });
    const flags: Flags = {
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'best-practices'],
      formFactor: 'mobile',
      screenEmulation: { disabled: true },
    };
    const result = await snapshot(page, { flags });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return scoresOf(result.lhr, url, 'mobile');
  } finally {
    await page.close();
  }
}

/** A report's scores, and the audits that failed (a runtime error is thrown, for the run to be taken again). */
function scoresOf(lhr: Result, url: string, formFactor: 'mobile' | 'desktop'): Scores {
  // BENCH_LIGHTHOUSE_SAVE=dir keeps each run's full report, to see which element was the LCP and what blocked.
  const saveDir = process.env.BENCH_LIGHTHOUSE_SAVE;
  if (saveDir) {
    mkdirSync(saveDir, { recursive: true });
    const name = `${new URL(url).pathname.replace(/\W+/g, '-')}-${formFactor}-${Date.now()}.json`;
    writeFileSync(path.join(saveDir, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new LighthouseRunError(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failed = ['accessibility', 'best-practices'].flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    failed,
  };
}

/**
 * The service with demo data. Writing the demo data has outlasted Fastify's 10 s plugin time-out on this machine when
 * it was busy: a start that failed is tried again on a fresh data folder.
 */
async function startDemoService(dataDir: string): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    const attemptDir = path.join(dataDir, String(attempt));
    mkdirSync(attemptDir);
    try {
      return await startService({ DATA_DIR: attemptDir, DEMO: 'on' });
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`  the service did not start (${String(error)}); starting it again`);
    }
  }
}

/** The run with the median performance score (its metrics belong together). */
function medianRun(runs: Scores[]): Scores {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return median;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function describe(scores: Scores): string {
  return (
    `FCP ${seconds(scores.fcpMs)}, LCP ${seconds(scores.lcpMs)}, TBT ${scores.tbtMs.toFixed(0)} ms, ` +
    `CLS ${scores.cls.toFixed(3)}; a11y ${scores.accessibility}, best practices ${scores.bestPractices}` +
    (scores.failed.length > 0 ? ` (failing: ${scores.failed.join(', ')})` : '')
  );
}

/**
 * Lighthouse's mobile preset (simulated slow 4G, 4× slower CPU) on each page of the built service with demo data,
 * the median of RUNS runs, and the desktop preset once. Simulated throttling models the network, but the CPU part
 * scales what this machine measured: a loaded machine scores lower.
 */
export async function lighthouseBench(): Promise<Figure[]> {
  const chromePath = findChromium();
  if (!chromePath) throw new Error('no Chromium found (install Debian chromium or set CHROMIUM_PATH)');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const service = await startDemoService(dataDir);
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  let browser: Browser | null = null;
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const session = await demoSession(service.url);
    const userId = await firstPushUserId(service.url, session);
    const pages: PageCase[] = [
      { name: 'sign-in', path: '/login', signedIn: false },
      { name: 'overview', path: '/', signedIn: true },
      { name: 'queue', path: '/authorization-requests', signedIn: true },
      { name: 'push users', path: '/push-users', signedIn: true },
      { name: 'one push user', path: `/push-users/${userId}`, signedIn: true },
      { name: 'people', path: '/people', signedIn: true },
      { name: 'one person', path: `/people/${encodeURIComponent('DEMO\\admin')}`, signedIn: true },
      { name: 'activity', path: '/activity', signedIn: true },
      { name: 'accounts', path: '/accounts', signedIn: true },
      { name: 'sign-in methods', path: '/sign-in-methods', signedIn: true },
      { name: 'two-factor tokens', path: '/two-factor', signedIn: true },
      { name: 'settings (alerts)', path: '/settings', signedIn: true },
      // One of the demo's ACME people with an account and no permission: the helpdesk's actions are open for them.
      {
        name: 'temporary-code dialog',
        path: `/people/${encodeURIComponent('ACME\\alice.ng')}`,
        signedIn: true,
        dialog: 'Temporary code',
      },
      { name: 'device app', path: '/device', signedIn: false },
    ];
    console.log(`load before: ${loadAverage()}`);
    const figures: Figure[] = [];
    // BENCH_LIGHTHOUSE_PAGES=queue,overview measures only the pages whose names contain a word.
    const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',');
    for (const page of pages.filter((candidate) => !only || only.some((word) => candidate.name.includes(word)))) {
      const url = service.url + page.path;
      if (page.dialog) {
        const open = await auditDialog(browser, url, page.signedIn ? session : null, page.dialog);
        console.log(`${page.name}: snapshot, ${describe(open)}`);
        figures.push({
          target: `Lighthouse snapshot, mobile: ${page.name} open (a11y ${open.accessibility}, best practices ${open.bestPractices}${open.failed.length > 0 ? `; failing: ${open.failed.join(', ')}` : ''})`,
          figure: open.accessibility,
          unit: 'accessibility',
          floor: null,
          floorLabel: '',
          ratio: null,
          budget: `a11y and best practices ${BUDGET.accessibility}`,
          pass: open.accessibility >= BUDGET.accessibility && open.bestPractices >= BUDGET.bestPractices,
        });
        continue;
      }
      const runs: Scores[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(await auditWithRetry(browser, chrome.port, url, page.signedIn ? session : null, 'mobile'));
      }
      const mobile = medianRun(runs);
      const desktop = await auditWithRetry(browser, chrome.port, url, page.signedIn ? session : null, 'desktop');
      console.log(
        `${page.name}: mobile ${runs.map((r) => r.performance).join('/')} → ${mobile.performance} (${describe(mobile)}); ` +
          `desktop ${desktop.performance} (${describe(desktop)})`,
      );
      figures.push(
        {
          target: `Lighthouse mobile: ${page.name} (${describe(mobile)})`,
          figure: mobile.performance,
          unit: 'performance',
          floor: null,
          floorLabel: '',
          ratio: null,
          budget: `>= ${BUDGET.performance}, a11y and best practices ${BUDGET.accessibility}, CLS < ${BUDGET.cls}`,
          pass:
            mobile.performance >= BUDGET.performance &&
            mobile.accessibility >= BUDGET.accessibility &&
            mobile.bestPractices >= BUDGET.bestPractices &&
            mobile.cls < BUDGET.cls,
        },
        {
          target: `Lighthouse desktop: ${page.name} (${describe(desktop)})`,
          figure: desktop.performance,
          unit: 'performance',
          floor: null,
          floorLabel: '',
          ratio: null,
          budget: `reported (>= ${BUDGET.desktop} expected)`,
          pass: true,
        },
      );
    }
    console.log(`load after: ${loadAverage()}`);
    return figures;
  } finally {
    await browser?.disconnect();
    chrome.kill();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The machine's load average (1, 5, 15 minutes): simulated throttling scales the CPU time measured here. */
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
