import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built service (`npm run build:server`) as a real OS process, for tests that kill it:
 * started on a free port, ready once it prints its API address, stopped with any signal.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SERVER_ENTRY = path.join(ROOT, 'dist/node/server/server.js');

function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(`${path.sep}test${path.sep}`)) continue;
    newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/** Builds the service unless dist/ already holds a build newer than every source file it comes from. */
export function ensureServerBuilt(): void {
  const built = fs.existsSync(SERVER_ENTRY) ? fs.statSync(SERVER_ENTRY).mtimeMs : 0;
  const sources = Math.max(newestSource(path.join(ROOT, 'src/server')), newestSource(path.join(ROOT, 'src/shared')));
  if (built > sources) return;
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc emits despite type errors (npm run typecheck reports those); only a missing build stops these tests.
    const { stdout } = error as { stdout?: Buffer };
    if (!fs.existsSync(SERVER_ENTRY)) throw error;
    console.warn(`npm run build:server reported errors; testing what it emitted:\n${String(stdout ?? '')}`);
  }
  // tsc keeps an unchanged output file's time; the entry's time is what the check above reads.
  const now = new Date();
  fs.utimesSync(SERVER_ENTRY, now, now);
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
  { openFiles }: { openFiles?: number } = {},
): Promise<ServiceProcess> {
  const [command, args] =
    openFiles === undefined
      ? [process.execPath, [SERVER_ENTRY]]
      : ['/bin/sh', ['-c', `ulimit -n ${openFiles} && exec "$0" "$1"`, process.execPath, SERVER_ENTRY]];
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
