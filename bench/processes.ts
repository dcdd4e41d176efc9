import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn until the ready URL answered. */
  readyMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

/** Spawns a server process and waits until `readyPath` answers 200. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, args, {
    // The configuration people run: the default log level (info, one line per request), written to /dev/null.
    env: {
      ...process.env,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + readyPath);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${command} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    child,
    readyMs,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        // A process killed by a signal has no exit code, only a signal code.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The service the bench measures: the current build, unless BENCH_SERVER_ENTRY names another. */
export const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY ?? 'dist/node/server/server.js';

export function startService(env: Record<string, string>): Promise<RunningServer> {
  return startProcess('node', [SERVER_ENTRY], env, '/api/Consumer/Version');
}

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function answer<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The password's answer: a full session where the policy asks no second factor of this person. */
export async function signIn(url: string, userName: string, password: string): Promise<string> {
  const response = await post(`${url}/api/Consumer/Authentication`, { UserName: userName, Password: password });
  return (await answer<{ Token: string }>(response, 'sign-in')).Token;
}

/**
 * A full session for an administrator of a fresh service, under the default second-factor policy (writers): the
 * password alone opens a session that may only add a second factor, which adds recovery codes; the password again
 * then asks for the second step, which one of the codes completes. What is measured is the session's use.
 */
export async function signInFully(url: string, userName: string, password: string): Promise<string> {
  const login = `${url}/api/Consumer/Authentication`;
  const first = await post(login, { UserName: userName, Password: password });
  const firstSession = await answer<{ Token: string; EnrolmentRequired?: boolean }>(first, 'sign-in');
  if (!firstSession.EnrolmentRequired) return firstSession.Token;
  const { Codes } = await answer<{ Codes: string[] }>(
    await post(`${url}/api/Admin/Accounts/Me/RecoveryCodes`, {}, firstSession.Token),
    'adding recovery codes',
  );
  const second = await post(login, { UserName: userName, Password: password });
  const { ticket } = (await second.json()) as { ticket?: string };
  if (second.status !== 401 || !ticket) throw new Error(`the second step was not asked for: ${second.status}`);
  const full = await post(`${login}/RecoveryCode`, { Ticket: ticket, Code: Codes[0] });
  return (await answer<{ Token: string }>(full, 'the second step')).Token;
}
