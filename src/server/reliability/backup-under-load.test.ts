import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthorizationRequest,
  AuthorizationRequestList,
  PushMessageUserList,
  type PushUserStatus,
} from '../../shared/contract/index.ts';
import { downloadBackup } from '../backup/backup-client.ts';
import { SQLITE_FILE_NAME } from '../db/database.ts';
import { ADMIN } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';

/**
 * A backup taken from the built service while writes go on holds every write acknowledged before it was asked for;
 * `npm run restore` puts it in place (refusing while a service holds the database), and a service started on it
 * serves those writes.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);
const WRITE_WINDOW_MS = 600;

async function call(api: string, method: string, route: string, token: string, payload?: unknown) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function login(api: string): Promise<string> {
  const response = await fetch(`${api}/Consumer/Authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
  });
  return ((await response.json()) as { Token: string }).Token;
}

/** Runs a script of scripts/ as `npm run` does, answering its exit code and what it printed. */
async function script(name: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, [path.join(ROOT, 'scripts', name), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('backups under load (embedded SQLite, the built service)', () => {
  const folders: string[] = [];
  const services: ServiceProcess[] = [];
  const folder = (prefix: string) => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(made);
    return made;
  };
  const env = (dataDir: string) => ({
    DATA_DIR: dataDir,
    DEMO: 'on',
    PASSWORD_HASH_COST: '1024',
    LOGIN_RATE_PER_MINUTE: '100000',
    DEMO_CREATIONS_PER_MINUTE: '100000',
  });

  beforeAll(() => ensureServerBuilt(), 120_000);
  afterAll(async () => {
    for (const service of services) await stopService(service);
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  });

  it('keeps every write acknowledged before the backup was asked for, and the restored service serves them', async () => {
    const dataDir = folder('tachyon-backup-load-');
    const service = await startService(env(dataDir));
    services.push(service);
    const { api } = service;
    const token = await login(api);
    const pushUsers = PushMessageUserList.parse((await call(api, 'GET', '/Consumer/PushMessageUsers', token)).body);

    // Ledgers: what the service acknowledged, and when (relative to the moment the backup is asked for).
    const created: { id: number; at: number }[] = [];
    const statuses = new Map<number, { status: PushUserStatus; at: number }[]>();
    const failures: string[] = [];
    let writing = true;
    const creator = async () => {
      while (writing) {
        const answer = await call(api, 'POST', '/Demo/AuthorizationRequests', token, {});
        if (answer.status !== 201) failures.push(`create: ${answer.status}`);
        else created.push({ id: AuthorizationRequest.parse(answer.body).Id, at: performance.now() });
      }
    };
    // One writer per push user: its changes are ordered, so the newest acknowledged one is well defined.
    const switcher = async (id: number) => {
      const cycle: PushUserStatus[] = [2, 1];
      for (let turn = 0; writing; turn++) {
        const status = cycle[turn % 2] as PushUserStatus;
        const answer = await call(api, 'PUT', '/Consumer/PushMessageUsers', token, { Id: id, Status: status });
        if (answer.status !== 200) failures.push(`status: ${answer.status}`);
        else statuses.set(id, [...(statuses.get(id) ?? []), { status, at: performance.now() }]);
      }
    };
    const writers = [creator(), creator(), ...pushUsers.slice(0, 3).map((user) => switcher(user.Id))];

    // The window, and at least the writes the checks below need: a loaded machine acknowledges fewer in it.
    const started = performance.now();
    while (performance.now() - started < WRITE_WINDOW_MS || (created.length <= 10 && failures.length === 0)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const askedAt = performance.now();
    const backupFile = path.join(folder('tachyon-backup-out-'), 'tachyon.sqlite3');
    const taken = await downloadBackup({ url: api, userName: ADMIN[0], password: ADMIN[1] }, backupFile);
    // Writes went on while the backup was taken, and a little after.
    await new Promise((resolve) => setTimeout(resolve, 100));
    writing = false;
    await Promise.all(writers);
    expect(failures).toEqual([]);
    expect(taken.bytes).toBeGreaterThan(0);

    const before = created.filter((entry) => entry.at < askedAt).map((entry) => entry.id);
    expect(before.length).toBeGreaterThan(10);
    expect(created.some((entry) => entry.at > askedAt)).toBe(true);
    const copy = new SQLite(backupFile, { readonly: true });
    try {
      const ids = new Set(
        (copy.prepare('select id from authorization_requests').all() as { id: number }[]).map((row) => row.id),
      );
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      for (const [id, changes] of statuses) {
        // The copy holds the newest status acknowledged before it was asked for, or one acknowledged later.
        const last = changes.findLast((change) => change.at < askedAt);
        if (!last) continue;
        const allowed = changes.slice(changes.indexOf(last)).map((change) => change.status);
        const row = copy.prepare('select status from push_message_users where id = ?').get(id) as { status: number };
        expect(allowed).toContain(row.status);
      }
    } finally {
      copy.close();
    }

    // The backup script refuses clearly without a way in; the restore refuses while the service holds its database.
    const refusedBackup = await script('backup.ts', [path.join(path.dirname(backupFile), 'x.sqlite3')], {
      TACHYON_URL: api,
      TACHYON_USERNAME: ADMIN[0],
      TACHYON_PASSWORD: 'not the password',
    });
    expect(refusedBackup.code).toBe(1);
    expect(refusedBackup.output).toMatch(/Backup failed: Signing in failed: HTTP 401/);
    const refusedRestore = await script('restore.ts', [backupFile], { DATA_DIR: dataDir });
    expect(refusedRestore.code).toBe(1);
    expect(refusedRestore.output).toMatch(/Restore failed: .*in use by another process/);

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const restoredDir = folder('tachyon-backup-restored-');
    const restored = await script('restore.ts', [backupFile], { DATA_DIR: restoredDir });
    expect(restored.code, restored.output).toBe(0);
    expect(fs.existsSync(path.join(restoredDir, SQLITE_FILE_NAME))).toBe(true);

    const second = await startService(env(restoredDir));
    services.push(second);
    const secondToken = await login(second.api);
    const served = AuthorizationRequestList.parse(
      (await call(second.api, 'GET', '/Consumer/Authentication/AuthorizationRequests?getall=true', secondToken)).body,
    );
    const servedIds = new Set(served.map((request) => request.Id));
    expect(before.filter((id) => !servedIds.has(id))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
