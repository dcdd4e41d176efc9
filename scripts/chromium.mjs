// Finds a Chromium for Playwright: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own download.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    const { chromium } = require('playwright-core');
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core missing or without a downloaded browser: the other candidates stand.
  }
  return candidates.find((candidate) => candidate && existsSync(candidate)) ?? null;
}

/** Flags that keep Chromium off the network: this machine's closed network refuses its background calls. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
