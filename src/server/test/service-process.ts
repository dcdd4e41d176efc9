import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built service as a real OS process, for tests that kill it:
 * started on a free port, ready once it prints its API address, stopped with any signal.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * The tests' own builds of the service, one folder per source stamp, apart from `dist` (which `npm run build` and
 * `npm start` swap while tests run: a service started from it lost its files mid-run). A folder, once renamed into
 * place, is never written again, so test files building at the same time cannot pull a file from under each other.
 */
const TEST_BUILDS = path.join(ROOT, '.service-builds');

/** A hash of the service's sources (tests and test helpers aside): equal hashes, equal builds. */
function sourceStamp(): string {
  const files: string[] = [];
  for (const folder of ['src/server', 'src/shared']) {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.test\.ts$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (!file.includes(`${path.sep}test${path.sep}`)) files.push(file);
    }
  }
  const hash = createHash('sha256').update(fs.readFileSync(path.join(ROOT, 'tsconfig.server.json')));
  for (const file of files.sort()) hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

let entry: string | null = null;

/** The service of the full build (`npm run build`, what `npm start` serves), which the browser tests run. */
export const FULL_BUILD_ENTRY = path.join(ROOT, 'dist/node/server/server.js');

/** The tests' build of the service's entry point; ensureServerBuilt() first. */
export function serverEntry(): string {
  if (!entry) throw new Error('ensureServerBuilt() was not called');
  return entry;
}

/** Builds the service for these sources unless a build of them exists, and answers its entry point. */
export function ensureServerBuilt(): string {
  const folder = path.join(TEST_BUILDS, sourceStamp());
  const built = path.join(folder, 'server', 'server.js');
  if (!fs.existsSync(built)) {
    const partial = `${folder}.partial-${process.pid}`;
    try {
      execFileSync(
        path.join(ROOT, 'node_modules', '.bin', 'tsc'),
        // Emitted only (npm run typecheck checks types): a third of the time of a checked build.
        ['-p', 'tsconfig.server.json', '--noCheck', '--outDir', partial],
        {
          cwd: ROOT,
          stdio: 'pipe',
        },
      );
    } catch (error) {
      // A syntax error still stops the emit; only a missing build stops these tests.
      const { stdout } = error as { stdout?: Buffer };
      if (!fs.existsSync(path.join(partial, 'server', 'server.js'))) throw error;
      console.warn(`the service's build reported errors; testing what it emitted:\n${String(stdout ?? '')}`);
    }
    try {
      fs.renameSync(partial, folder);
    } catch {
      // Another test file built the same sources first: theirs is as good.
      fs.rmSync(partial, { recursive: true, force: true });
    }
    for (const name of fs.readdirSync(TEST_BUILDS)) {
      const other = path.join(TEST_BUILDS, name);
      // Builds of older sources, and partial ones a killed run left, once they are an hour old.
      if (other !== folder && Date.now() - fs.statSync(other).mtimeMs > 3_600_000)
        fs.rmSync(other, { recursive: true, force: true });
    }
  }
  entry = built;
  return built;
}

export interface ServiceProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:port/api`, or https:// when the service has its own certificate */
  api: string;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string>;
}

/** Ends a service a test left running; one that has exited already is only waited for. */
export async function stopService(service: ServiceProcess | null): Promise<void> {
  if (!service) return;
  if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await service.exited;
}

/**
 * `openFiles` starts it under `ulimit -n` (soft and hard, so Node cannot raise it): a process that may open only
 * that many files, as on a host with a low limit.
 */
export async function startService(
  env: Record<string, string>,
  timeoutMs = 30_000,
  { openFiles, entry = serverEntry() }: { openFiles?: number; entry?: string } = {},
): Promise<ServiceProcess> {
  const [command, args] =
    openFiles === undefined
      ? [process.execPath, [entry]]
      : ['/bin/sh', ['-c', `ulimit -n ${openFiles} && exec "$0" "$1"`, process.execPath, entry]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_ROOT: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const api = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const match = /API:\s+(https?:\/\/\S+\/api)\b/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${how}) before it was ready:\n${output}`));
    });
  });
  return { child, api, exited, output: () => output };
}
