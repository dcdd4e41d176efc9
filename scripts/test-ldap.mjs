// Runs the directory sign-in tests against a real OpenLDAP server: installs Debian's slapd (and openssl, for the
// StartTLS certificates) when missing, then `vitest run` on the *.ldap.test.ts files, which start a throwaway slapd
// on 127.0.0.1 with their own users, groups, CA and certificate, and remove it afterwards.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const started = performance.now();
const log = (message) => console.log(`[test:ldap] ${message}`);
const have = (file) => fs.existsSync(file);

function ensureSlapd() {
  const missing = [];
  if (!have('/usr/sbin/slapd')) missing.push('slapd');
  if (!have('/usr/bin/openssl')) missing.push('openssl');
  if (missing.length === 0) return;
  const canInstall = process.getuid?.() === 0 && have('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      [
        `Missing for the directory tests: ${missing.join(', ')}.`,
        `Install and run npm run test:ldap again: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
      ].join('\n'),
    );
    process.exit(1);
  }
  log(`installing Debian's ${missing.join(', ')} (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  // The package starts a system slapd on port 389; these tests run their own and need none.
  try {
    execFileSync('service', ['slapd', 'stop'], { stdio: 'ignore' });
  } catch {
    // no service manager, or nothing started
  }
}

ensureSlapd();
// slapd prints its version on stderr.
const slapdVersion = spawnSync('/usr/sbin/slapd', ['-VV'], { encoding: 'utf8' });
log(
  `${slapdVersion.stderr || slapdVersion.stdout}`
    .split('\n')[0]
    ?.replace(/^@\(#\) \$/, '')
    .trim() ?? '',
);
const args = ['vitest', 'run', '--config', 'scripts/vitest-ldap.config.ts', ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) =>
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
log(`${code === 0 ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
