import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';

const LONG_FLOWS = ['session-lifetime.spec.ts', 'passkeys.spec.ts', 'devices.spec.ts'];

export default defineConfig({
  testDir: './e2e',
  // Each worker starts its own service and database (e2e/support/test.ts), so workers cannot see each other's data.
  // Two match a two-core machine: each worker drives a browser and a service. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Every test starts from its own demo reset, so tests of one file may run in different workers too.
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // Two workers share two cores, so a test gets about half the CPU it had alone: 60 s where 30 s sufficed.
  timeout: 60_000,
  // What a step waits for is the page's answer, not its speed (the benches measure that). A cold page load with its
  // first data took over 5 s with the other workers busy (3 workers on 2 cores: 4 of 140 tests), and CI's machine has
  // run a test 3.7 times as slowly as this one; 10 s lets such a machine finish, and only a failure waits it out.
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  // The longest flows (the idle session waits for real deadlines; the passkey flow for its step-up to age) start
  // first, in a project listed first: started last, one would run on alone while the other worker had nothing left.
  projects: [
    { name: 'long-flows', testMatch: LONG_FLOWS },
    { name: 'flows', testIgnore: LONG_FLOWS },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
    // Recording a trace of every test costs about a third of the suite's time on two cores; E2E_TRACE=1 keeps one of
    // each failure when a failure needs to be replayed.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    // The browser's CPU is what the suite waits on: with the motion a person may turn off gone (the app honours it,
    // reduced-motion.css), the suite runs about 5% faster, and no step races a closing dialog's transition.
    reducedMotion: 'reduce',
  },
});
