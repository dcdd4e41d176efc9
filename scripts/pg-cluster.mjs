// A throwaway PostgreSQL cluster: initdb in a temp dir, 127.0.0.1 on a free port, trust auth; stopped and removed
// by stop(), on process exit and on SIGINT/SIGTERM/SIGHUP. Used by `npm run test:pg` and `npm run bench -- pg`.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const isRoot = process.getuid?.() === 0;

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

/** The PostgreSQL bin dir; as root with apt-get, installs Debian's postgresql when there is none. Exits otherwise. */
export function ensurePostgres(log = console.log) {
  const found = findPostgresBin();
  if (found) return found;
  const canInstall = isRoot && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      [
        'No PostgreSQL server binaries (initdb, pg_ctl) found.',
        'Install them and run again, either:',
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
    console.error('Running as root, but there is no postgres OS user to own the cluster (install postgresql).');
    process.exit(1);
  }
}

/** The temp folder, unless the cluster's owner (another OS user) cannot enter it; then /var/tmp. */
function baseDir(owner) {
  const tmp = os.tmpdir();
  if (!owner) return tmp;
  const othersMayEnter = (fs.statSync(tmp).mode & 0o001) !== 0;
  return othersMayEnter || !fs.existsSync('/var/tmp') ? tmp : '/var/tmp';
}

/**
 * Starts a throwaway cluster. `settings` are extra `-c` server settings (e.g. `fsync=off`); the cluster is stopped
 * and its folder removed by `stop()`, and also when the process exits.
 */
export async function startThrowawayCluster({ settings = [], log = console.log } = {}) {
  const bin = ensurePostgres(log);
  const owner = clusterOwner();
  const tempDir = fs.mkdtempSync(path.join(baseDir(owner), 'tachyon-pg-'));
  const dataDir = path.join(tempDir, 'data');
  const logFile = path.join(tempDir, 'postgres.log');
  if (owner) fs.chownSync(tempDir, owner.uid, owner.gid);

  /** Runs a PostgreSQL tool as the cluster owner; throws with its output when it fails. */
  const pgTool = (name, args) => {
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
  };

  let serverStarted = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    if (serverStarted) {
      try {
        pgTool('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      } catch (error) {
        console.error(`stopping the PostgreSQL cluster: ${error.message}`);
      }
    }
    fs.rmSync(tempDir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  try {
    pgTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    const serverOptions = [
      `-h 127.0.0.1 -p ${port} -k ${tempDir}`,
      '-c max_connections=200 -c shared_buffers=64MB -c log_checkpoints=off',
      ...settings.map((setting) => `-c ${setting}`),
    ].join(' ');
    pgTool('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
    serverStarted = true;
    const version = pgTool('postgres', ['--version']).trim();
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, tempDir, logFile, version, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
