// Makes sure the browser tests have a Chromium: finds one, or installs Debian's where it may (root with apt-get).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './chromium.mjs';

const found = findChromium();
if (found) {
  console.log(`Chromium for browser tests: ${found}`);
  process.exit(0);
}

const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    [
      'No Chromium found for the browser tests.',
      'Install one and run npm test again, either:',
      '  - Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
      '  - or point CHROMIUM_PATH at a Chromium or Chrome binary',
      '  - or, with internet access, npx playwright install chromium',
    ].join('\n'),
  );
  process.exit(1);
}

console.log("No Chromium found; installing Debian's chromium package (apt-get)...");
const apt = (...args) =>
  execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
apt('update');
apt('install', '-y', '--no-install-recommends', 'chromium');
const installed = findChromium();
if (!installed) {
  console.error('apt-get finished but no Chromium binary was found.');
  process.exit(1);
}
console.log(`Chromium for browser tests: ${installed}`);
