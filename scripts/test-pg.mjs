// Runs the service's HTTP test suite against a real PostgreSQL server: initdb's a throwaway cluster in a
// temp dir (127.0.0.1 on a free port, trust auth), points TEST_DATABASE_URL at it, runs
// `vitest run --project service` (extra arguments are passed on), then stops and removes the cluster,
// also when the tests fail or the run is interrupted.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const started = performance.now();
const isRoot = process.getuid?.() === 0;
const log = (message) => console.log(`[test:pg] ${message}`);

/** The bin dir of the newest installed PostgreSQL (Debian keeps them per version), or of pg_config, or null. */
function findPostgresBin() {
  if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  try {
    const bin = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (fs.existsSync(path.join(bin, 'initdb'))) return bin;
  } catch {
    // no pg_config on the PATH
  }
  return null;
}

function ensurePostgres() {
  const found = findPostgresBin();
  if (found) return found;
  const canInstall = isRoot && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      [
        'No PostgreSQL server binaries (initdb, pg_ctl) found for the PostgreSQL test run.',
        'Install them and run npm run test:pg again, either:',
        '  - Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y postgresql',
        '  - or set PG_BIN to the folder holding initdb and pg_ctl',
      ].join('\n'),
    );
    process.exit(1);
  }
  log("no PostgreSQL found; installing Debian's postgresql package (apt-get)...");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env });
  const installed = findPostgresBin();
  if (!installed) {
    console.error('apt-get finished but no initdb was found under /usr/lib/postgresql.');
    process.exit(1);
  }
  return installed;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres OS user. */
function clusterOwner() {
  if (!isRoot) return null;
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    console.error('Running as root, but there is no postgres OS user to own the test cluster (install postgresql).');
    process.exit(1);
  }
}

const bin = ensurePostgres();
const owner = clusterOwner();
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-pg-'));
const dataDir = path.join(tempDir, 'data');
const logFile = path.join(tempDir, 'postgres.log');
if (owner) fs.chownSync(tempDir, owner.uid, owner.gid);

/** Runs a PostgreSQL tool as the cluster owner; throws with its output when it fails. */
function pgTool(name, args) {
  const result = spawnSync(path.join(bin, name), args, {
    encoding: 'utf8',
    cwd: tempDir,
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (result.status !== 0) {
    throw new Error(`${name} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

let serverStarted = false;
let cleanedUp = false;
function cleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  if (serverStarted) {
    try {
      pgTool('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
    } catch (error) {
      console.error(`[test:pg] stopping the cluster: ${error.message}`);
    }
  }
  fs.rmSync(tempDir, { recursive: true, force: true });
}

let child = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = signal;
    if (child && child.exitCode === null) child.kill(signal);
    else {
      cleanUp();
      process.exit(130);
    }
  });
}
process.on('exit', cleanUp);

let exitCode = 1;
try {
  pgTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  // Durability is not what these tests check (the crash tests do, on the embedded database): no fsync.
  const serverOptions = [
    `-h 127.0.0.1 -p ${port} -k ${tempDir}`,
    '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
    '-c max_connections=200 -c shared_buffers=64MB -c log_checkpoints=off',
  ].join(' ');
  pgTool('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
  serverStarted = true;
  const version = pgTool('postgres', ['--version']).trim();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  log(`${version} throwaway cluster on 127.0.0.1:${port} (${tempDir})`);

  const args = ['vitest', 'run', '--project', 'service', ...process.argv.slice(2)];
  log(`TEST_DATABASE_URL=${url} npx ${args.join(' ')}`);
  child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
  exitCode = await new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.once('error', (error) => {
      console.error(`[test:pg] could not run vitest: ${error.message}`);
      resolve(1);
    });
  });
  if (exitCode !== 0 && fs.existsSync(logFile)) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    console.error(`[test:pg] last lines of the PostgreSQL log:\n${tail}`);
  }
} catch (error) {
  console.error(`[test:pg] ${error.message}`);
  exitCode = 1;
} finally {
  cleanUp();
}
if (interrupted) exitCode = exitCode || 130;
const outcome = interrupted ? `interrupted (${interrupted})` : exitCode === 0 ? 'passed' : 'FAILED';
log(`${outcome} in ${((performance.now() - started) / 1000).toFixed(1)} s; cluster removed`);
process.exit(exitCode);
