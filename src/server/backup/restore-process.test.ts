import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../db/database.ts';
import { ADMIN } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';
import { downloadBackup } from './backup-client.ts';

/**
 * Restoring after a crash, the usual reason anyone restores: the service killed with SIGKILL leaves its last writes
 * in the write-ahead log, and the kept file must hold them. Then the restored service must not take back what ended
 * after the backup: sessions, device credentials, enrolment codes.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);

async function call(
  api: string,
  method: string,
  route: string,
  authorization?: string,
  payload?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function login(api: string): Promise<string> {
  const answer = await call(api, 'POST', '/Consumer/Authentication', undefined, {
    UserName: ADMIN[0],
    Password: ADMIN[1],
  });
  expect(answer.status).toBe(200);
  return answer.body.Token as string;
}

async function enrol(api: string, token: string, model: string): Promise<{ device: string; guid: string }> {
  const answer = await call(api, 'POST', '/Device/Enrollments', `Bearer ${token}`, {
    DeviceType: 'Android',
    Manufacturer: 'Acme',
    Model: model,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { device: `Device ${answer.body.DeviceToken as string}`, guid: answer.body.RequestGuid as string };
}

describe('restoring after the service was killed', () => {
  const folders: string[] = [];
  const services: ServiceProcess[] = [];
  const folder = (prefix: string) => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(made);
    return made;
  };
  beforeAll(() => ensureServerBuilt(), 120_000);
  afterAll(async () => {
    for (const service of services) await stopService(service);
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  });

  it('keeps every acknowledged write in the kept file, and ends what the backup would bring back to life', async () => {
    const dataDir = folder('tachyon-restore-data-');
    const auditFile = path.join(folder('tachyon-restore-audit-'), 'audit.log');
    const env = { DATA_DIR: dataDir, DEMO: 'on', PASSWORD_HASH_COST: '1024', AUDIT_LOG: auditFile };
    const service = await startService(env);
    services.push(service);
    const token = await login(service.api);
    const kept = await enrol(service.api, token, 'kept');
    const removed = await enrol(service.api, token, 'removed later');
    const link = await call(service.api, 'POST', '/Device/EnrollmentLinks', `Bearer ${token}`);
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    // PORT=0: the link names the port the service took (the default PUBLIC_URL), not a header's.
    expect(link.body.Url).toMatch(new RegExp(`^http://localhost:${new URL(service.api).port}/device#enrol=`));
    const backupFile = path.join(folder('tachyon-restore-backups-'), 'before.sqlite3');
    await downloadBackup({ url: service.api, token }, backupFile);

    // After the backup: a device removes itself, and more phones enrol (rows the backup does not have).
    expect((await call(service.api, 'DELETE', '/Device', removed.device)).status).toBe(204);
    expect((await call(service.api, 'GET', '/Device', removed.device)).status).toBe(401);
    const later: string[] = [];
    for (let n = 0; n < 5; n++) later.push((await enrol(service.api, token, `after ${n}`)).guid);

    service.child.kill('SIGKILL');
    await service.exited;
    const database = path.join(dataDir, SQLITE_FILE_NAME);
    // The writes since the last checkpoint are in the log only.
    expect(fs.statSync(`${database}-wal`).size).toBeGreaterThan(0);

    const restore = await run(TSX, [path.join(ROOT, 'scripts/restore.ts'), backupFile], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    const keptFile = /kept as (\S+)\.\n/.exec(restore.stdout)?.[1] ?? '';
    expect(keptFile, restore.stdout).toMatch(/tachyon\.sqlite\.before-restore-\d{4}-\d\d-\d\dT\d{6}Z$/);
    expect(restore.stdout).toMatch(/Ended [1-9]\d* session\(s\): everyone signs in again\./);
    expect(restore.stdout).toMatch(/Ended 2 device\(s\): each phone enrols again/);
    expect(restore.stdout).toMatch(/Dropped 1 unused enrolment code\(s\)\./);
    expect(restore.stdout).not.toMatch(/could not be folded/);
    expect(fs.existsSync(`${database}-wal`)).toBe(false);
    expect(fs.existsSync(`${keptFile}-wal`)).toBe(false);

    // The kept file alone (its log folded in) is whole and holds every acknowledged write.
    const previous = new SQLite(keptFile, { readonly: true, fileMustExist: true });
    try {
      expect(previous.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const guids = previous
        .prepare(
          `select request_guid from authorization_requests where request_guid in (${later.map(() => '?').join()})`,
        )
        .all(...later);
      expect(guids).toHaveLength(later.length);
      const ended = previous
        .prepare(
          "select devices.ended_at from devices join authorization_requests r on r.id = devices.authorization_request_id where r.model = 'removed later'",
        )
        .get() as { ended_at: string | null };
      expect(ended.ended_at).not.toBeNull();
    } finally {
      previous.close();
    }

    const audit = fs
      .readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { event: { action: string }; tachyon?: { details?: Record<string, unknown> } },
      );
    expect(audit.find((line) => line.event.action === 'backup-restored')?.tachyon?.details).toMatchObject({
      kept: keptFile,
      devicesEnded: 2,
      enrollmentCodesDropped: 1,
    });

    // The restored service: the device removed after the backup stays removed, the other must enrol again, the
    // session of before is over, and the enrolment link is spent.
    const restored = await startService(env);
    services.push(restored);
    for (const device of [removed.device, kept.device]) {
      const answer = await call(restored.api, 'GET', '/Device', device);
      expect(answer.status).toBe(401);
      expect(String(answer.body.detail)).toMatch(/Enrol it again/);
    }
    expect((await call(restored.api, 'GET', '/Admin/Accounts', `Bearer ${token}`)).status).toBe(401);
    const code = await call(restored.api, 'POST', '/Device/Enrollments', undefined, {
      DeviceType: 'Android',
      EnrollmentCode: link.body.Code,
    });
    expect(code.status).toBe(401);
    const fresh = await login(restored.api);
    expect((await call(restored.api, 'GET', '/Admin/Accounts', `Bearer ${fresh}`)).status).toBe(200);
    await enrol(restored.api, fresh, 'enrolled again');
    restored.child.kill('SIGTERM');
    expect(await restored.exited).toBe(0);
  }, 120_000);
});
