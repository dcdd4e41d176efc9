// The type check and the linter at once: tsc keeps one core busy, Biome is quick on the other. Both always finish, so
// one run reports every problem of each.
import { spawn } from 'node:child_process';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });

const codes = await Promise.all([run('typecheck'), run('lint')]);
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
