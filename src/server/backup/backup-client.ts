import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { BackupFileError, checkBackupFile } from './backup-file.ts';

/** How `npm run backup` reaches the service: TACHYON_URL, and TACHYON_TOKEN or TACHYON_USERNAME/TACHYON_PASSWORD. */
export interface BackupClientOptions {
  /** The service's address (`https://tachyon.acme.example`), with or without `/api`. */
  url: string;
  token?: string | null;
  userName?: string | null;
  password?: string | null;
}

/** Reads the client's options from the environment; a message naming what is missing otherwise. */
export function backupClientOptions(env: NodeJS.ProcessEnv): BackupClientOptions {
  const token = env.TACHYON_TOKEN?.trim() || null;
  const userName = env.TACHYON_USERNAME?.trim() || null;
  const password = env.TACHYON_PASSWORD || null;
  if (!token && !(userName && password)) {
    throw new BackupFileError(
      'Set TACHYON_TOKEN (a session token), or TACHYON_USERNAME and TACHYON_PASSWORD of an account with Accounts Write.',
    );
  }
  return { url: env.TACHYON_URL?.trim() || 'http://127.0.0.1:8080', token, userName, password };
}

const apiBase = (url: string) => {
  const trimmed = url.replace(/\/+$/, '');
  return /\/api$/i.test(trimmed) ? trimmed : `${trimmed}/api`;
};

/** A refused request as one line: status, and the problem's detail when the answer is one. */
async function refusal(what: string, response: Response): Promise<BackupFileError> {
  let detail = '';
  try {
    const problem = (await response.json()) as { detail?: string; command?: string };
    detail = problem.detail ?? '';
  } catch {}
  return new BackupFileError(`${what} failed: HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
}

/**
 * Downloads a backup into `out` (written aside, checked with PRAGMA integrity_check, then renamed): a file at `out` is
 * always a whole, checked backup. Signs in first when given a user name and password, and out again after.
 */
export async function downloadBackup(
  options: BackupClientOptions,
  out: string,
): Promise<{ file: string; bytes: number }> {
  const base = apiBase(options.url);
  let token = options.token ?? null;
  const signedIn = !token;
  if (!token) {
    const response = await fetch(`${base}/Consumer/Authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: options.userName, Password: options.password }),
    });
    if (!response.ok) throw await refusal('Signing in', response);
    token = ((await response.json()) as { Token: string }).Token;
  }
  const partial = `${out}.partial`;
  try {
    const response = await fetch(`${base}/Admin/Backup`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok || !response.body) throw await refusal('The backup', response);
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    checkBackupFile(partial);
    fs.renameSync(partial, out);
    return { file: out, bytes: fs.statSync(out).size };
  } finally {
    fs.rmSync(partial, { force: true });
    if (signedIn) {
      await fetch(`${base}/Consumer/Authentication/Session`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
  }
}
