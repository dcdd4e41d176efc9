// Runs the service's HTTP test suite against a real PostgreSQL server: starts a throwaway cluster
// (scripts/pg-cluster.mjs), points TEST_DATABASE_URL at it, runs `vitest run --project service` (extra arguments
// are passed on), then stops and removes the cluster, also when the tests fail or the run is interrupted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { startThrowawayCluster } from './pg-cluster.mjs';

const started = performance.now();
const log = (message) => console.log(`[test:pg] ${message}`);

let cluster = null;
let child = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = signal;
    if (child && child.exitCode === null) child.kill(signal);
    else {
      cluster?.stop();
      process.exit(130);
    }
  });
}

let exitCode = 1;
try {
  // Durability is not what these tests check (the crash tests do, on the embedded database): no fsync.
  cluster = await startThrowawayCluster({
    settings: ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'],
    log,
  });
  log(`${cluster.version} throwaway cluster on 127.0.0.1:${cluster.port} (${cluster.tempDir})`);

  const args = ['vitest', 'run', '--project', 'service', ...process.argv.slice(2)];
  log(`TEST_DATABASE_URL=${cluster.url} npx ${args.join(' ')}`);
  child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: cluster.url } });
  exitCode = await new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.once('error', (error) => {
      console.error(`[test:pg] could not run vitest: ${error.message}`);
      resolve(1);
    });
  });
  if (exitCode !== 0 && fs.existsSync(cluster.logFile)) {
    const tail = fs.readFileSync(cluster.logFile, 'utf8').split('\n').slice(-30).join('\n');
    console.error(`[test:pg] last lines of the PostgreSQL log:\n${tail}`);
  }
} catch (error) {
  console.error(`[test:pg] ${error.message}`);
  exitCode = 1;
} finally {
  cluster?.stop();
}
if (interrupted) exitCode = exitCode || 130;
const outcome = interrupted ? `interrupted (${interrupted})` : exitCode === 0 ? 'passed' : 'FAILED';
log(`${outcome} in ${((performance.now() - started) / 1000).toFixed(1)} s; cluster removed`);
process.exit(exitCode);
