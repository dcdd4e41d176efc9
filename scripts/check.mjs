// The type check and the linter at once: tsc keeps one core busy, Biome is quick on the other. Both always finish, so
// one run reports every problem of each. Scripts named as arguments run beside them (`npm test` builds for the browser
// tests meanwhile: the core Biome leaves idle would otherwise wait for tsc).
import { spawn } from 'node:child_process';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });

const codes = await Promise.all(['typecheck', 'lint', ...process.argv.slice(2)].map(run));
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
