import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 4310);
// One throwaway database for the run; workers inherit it through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'tachyon-e2e-'));

export default defineConfig({
  testDir: './e2e',
  // The flows share one service and its demo data, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node dist/node/server/server.js',
    url: `http://127.0.0.1:${port}/api/Consumer/Version`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '',
      DEMO: 'on',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_PER_MINUTE: '10000',
      LOGIN_FAILURES_PER_ADDRESS: '10000',
      LOGIN_SLOW_AFTER_FAILURES: '10000',
      DEMO_CREATIONS_PER_MINUTE: '10000',
      // Below the default: the suite signs in hundreds of times; the hash's cost is not what it tests.
      PASSWORD_HASH_COST: '32768',
    },
  },
});
