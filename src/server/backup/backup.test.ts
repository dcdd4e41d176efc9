import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../audit/audit-log.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase, SQLITE_FILE_NAME } from '../db/database.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { AuditLines } from '../test/audit-lines.ts';
import { BackupFileError, checkBackupFile } from './backup-file.ts';
import { backupFileName } from './backup-name.ts';
import { pruneBackups, startBackupSchedule } from './backup-schedule.ts';
import { BackupService } from './backup-service.ts';
import { pgDumpCommand } from './pg-dump-command.ts';
import { restoreBackup } from './restore.ts';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-unit-'));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

/** A clock a minute further on at every reading, so each backup gets a name of its own. */
function minuteClock(start = Date.parse('2026-11-21T09:00:00Z')) {
  let now = start;
  return () => {
    const date = new Date(now);
    now += 60_000;
    return date;
  };
}

async function migratedDatabase(dataDir: string): Promise<DatabaseHandle> {
  const handle = openDatabase({ sqliteFile: path.join(dataDir, SQLITE_FILE_NAME) });
  await migrateToLatest(handle);
  return handle;
}

describe('backup names and the pg_dump command', () => {
  it('names a backup by its UTC time to the second', () => {
    expect(backupFileName(new Date('2026-01-02T03:04:05.678Z'))).toBe('tachyon-2026-01-02T030405Z.sqlite3');
  });

  it('builds pg_dump from DATABASE_URL without the password, in either connection string form', () => {
    expect(pgDumpCommand('postgres://tachyon:s3cret@db.acme.example:5433/tachyon?sslmode=require', 'x.dump')).toBe(
      "pg_dump --format=custom --file=x.dump --dbname='postgres://tachyon@db.acme.example:5433/tachyon?sslmode=require'",
    );
    expect(pgDumpCommand('postgresql://db/tachyon?password=s3cret&user=me', 'x.dump')).toBe(
      "pg_dump --format=custom --file=x.dump --dbname='postgresql://db/tachyon?user=me'",
    );
    const keywords = pgDumpCommand('host=db dbname=tachyon password=s3cret user=me', 'x.dump');
    expect(keywords).toBe("pg_dump --format=custom --file=x.dump --dbname='host=db dbname=tachyon user=me'");
    expect(keywords).not.toContain('s3cret');
  });

  it('answers 409 external-database with the command on PostgreSQL, and says so in the audit stream', async () => {
    const lines = new AuditLines();
    const postgres = { dialect: 'postgres', close: async () => undefined } as unknown as DatabaseHandle;
    const backups = new BackupService(
      postgres,
      minuteClock(),
      new AuditLog(lines, minuteClock()),
      'postgres://u:pw@h/d',
    );
    const refused = await backups.takeInto(folder, { kind: 'schedule' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 409, kind: 'external-database' });
    expect((refused as ProblemError).extensions.command).toBe(
      'pg_dump --format=custom --file=tachyon-2026-11-21T090000Z.dump --dbname=postgres://u@h/d',
    );
    expect(lines.of('backup-taken')[0]?.event).toMatchObject({ outcome: 'failure', reason: 'external-database' });
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

describe('what a backup leaves out', () => {
  it('holds no live two-factor code (hash or plain text) and no VAPID private key, not even in free pages', async () => {
    const source = await migratedDatabase(path.join(folder, 'source'));
    const stamp = '2026-11-21 09:00:00.000';
    const hash = 'f00dfacecafe'.repeat(5);
    await sql`insert into push_message_users (device_type, user_name, user_key, created_at, modified_at, status)
      values ('iOS', 'ACME\dana', 'acme\dana', ${stamp}, ${stamp}, 0)`.execute(source.db);
    await sql`insert into instructions (scheduled, created_by, created_by_key, state, token_hash, token_expires_at,
      failed_attempts, created_at, authenticated_at) values (0, 'ACME\dana', 'acme\dana', 'AwaitingTwoFactor',
      ${hash}, ${stamp}, 0, ${stamp}, null)`.execute(source.db);
    await sql`insert into pushes (push_message_user_id, instruction_id, scheduled, token, sent_at)
      values (1, 1, 0, '731904', ${stamp})`.execute(source.db);
    const privateKey = 'PrIvAtEvApIdKeY'.repeat(3);
    await sql`insert into service_keys (name, value, created_at)
      values ('vapid', ${JSON.stringify({ publicKey: 'pub', privateKey })}, ${stamp})`.execute(source.db);
    const lines = new AuditLines();
    const backups = new BackupService(source, minuteClock(), new AuditLog(lines, minuteClock()), null);
    const { file } = await backups.takeInto(path.join(folder, 'backups'), { kind: 'schedule' });
    await source.close();

    checkBackupFile(file);
    const raw = fs.readFileSync(file);
    for (const secret of [hash, '731904', privateKey]) expect(raw.includes(secret), secret).toBe(false);
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.prepare('select token_hash, state from instructions').all()).toEqual([
        { token_hash: null, state: 'AwaitingTwoFactor' },
      ]);
      expect(copy.prepare('select token from pushes').all()).toEqual([{ token: null }]);
      expect(copy.prepare('select count(*) as n from service_keys').get()).toEqual({ n: 0 });
    } finally {
      copy.close();
    }
    expect(lines.of('backup-taken')[0]?.tachyon?.details).toMatchObject({ codesLeftOut: 2 });
  });
});

describe('the backup schedule', () => {
  it('takes a backup every interval and keeps the newest N, leaving other files alone', async () => {
    const dataDir = path.join(folder, 'data');
    const backupDir = path.join(folder, 'backups');
    fs.mkdirSync(backupDir);
    fs.writeFileSync(path.join(backupDir, 'notes.txt'), 'mine');
    fs.writeFileSync(path.join(backupDir, 'tachyon-manual.sqlite3'), 'mine too');
    const handle = await migratedDatabase(dataDir);
    const lines = new AuditLines();
    const backups = new BackupService(handle, minuteClock(), new AuditLog(lines, minuteClock()), null);
    const errors: unknown[] = [];
    const schedule = startBackupSchedule(backups, {
      folder: backupDir,
      intervalMs: 20,
      keep: 2,
      onError: (error) => errors.push(error),
    });
    try {
      await expect.poll(() => lines.of('backup-taken').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    } finally {
      schedule.stop();
      await handle.close();
    }
    expect(errors).toEqual([]);
    const taken = lines.of('backup-taken').length;
    // The schedule may have been writing one more as it stopped: at most keep + 1 of its own until the next prune.
    const ours = fs.readdirSync(backupDir).filter((name) => name.endsWith('Z.sqlite3'));
    expect(ours.length).toBeLessThanOrEqual(3);
    expect(ours).toContain(backupFileName(new Date(Date.parse('2026-11-21T09:00:00Z') + (taken - 1) * 60_000)));
    expect(fs.readdirSync(backupDir)).toEqual(expect.arrayContaining(['notes.txt', 'tachyon-manual.sqlite3']));
    for (const name of ours) checkBackupFile(path.join(backupDir, name));
    expect(lines.of('backup-taken')[0]?.tachyon?.details).toMatchObject({ trigger: 'schedule' });
  });

  it('prunes only its own names, oldest first', () => {
    const names = [
      'tachyon-2026-01-01T000000Z.sqlite3',
      'tachyon-2026-01-03T000000Z.sqlite3',
      'tachyon-2026-01-02T000000Z.sqlite3',
    ];
    for (const name of [...names, 'tachyon-2026-01-01T000000Z.sqlite3.partial', 'other.sqlite3']) {
      fs.writeFileSync(path.join(folder, name), '');
    }
    expect(pruneBackups(folder, 1)).toEqual([
      'tachyon-2026-01-01T000000Z.sqlite3',
      'tachyon-2026-01-02T000000Z.sqlite3',
    ]);
    expect(fs.readdirSync(folder).sort()).toEqual([
      'other.sqlite3',
      'tachyon-2026-01-01T000000Z.sqlite3.partial',
      'tachyon-2026-01-03T000000Z.sqlite3',
    ]);
  });
});

describe('checking and restoring a backup', () => {
  it('refuses a file that is not a whole database of this service', () => {
    const garbage = path.join(folder, 'garbage.sqlite3');
    fs.writeFileSync(garbage, 'not a database at all, just text that is long enough to read a header from');
    expect(() => checkBackupFile(garbage)).toThrow(BackupFileError);
    const foreign = path.join(folder, 'foreign.sqlite3');
    const other = new SQLite(foreign);
    other.exec('create table notes (text)');
    other.close();
    expect(() => checkBackupFile(foreign)).toThrow(/not one of this service/);
    expect(() => checkBackupFile(path.join(folder, 'missing.sqlite3'))).toThrow(/cannot be opened/);
  });

  it('refuses while a service holds the database, then restores: the old file kept, stale -wal/-shm gone', async () => {
    const source = await migratedDatabase(path.join(folder, 'source'));
    await sql`insert into list_revisions (name, revision) values ('restored', 42)`.execute(source.db);
    const backups = new BackupService(source, minuteClock(), new AuditLog(null, minuteClock()), null);
    const { file } = await backups.takeInto(path.join(folder, 'backups'), { kind: 'schedule' });
    await source.close();

    const dataDir = path.join(folder, 'data');
    const running = await migratedDatabase(dataDir);
    await expect(restoreBackup(file, dataDir)).rejects.toThrow(/in use by another process/);
    await running.close();

    const database = path.join(dataDir, SQLITE_FILE_NAME);
    fs.writeFileSync(`${database}-shm`, 'stale');
    const result = await restoreBackup(file, dataDir, new Date('2026-11-22T10:11:12Z'));
    expect(result.previous).toBe(`${database}.before-restore-2026-11-22T101112Z`);
    expect(fs.existsSync(result.previous as string)).toBe(true);
    expect(fs.existsSync(`${database}-shm`)).toBe(false);
    expect(fs.statSync(database).mode & 0o777).toBe(0o600);
    const restored = new SQLite(database, { readonly: true });
    try {
      expect(restored.prepare("select revision from list_revisions where name = 'restored'").get()).toEqual({
        revision: 42,
      });
    } finally {
      restored.close();
    }
  }, 20_000);

  it('keeps a write-ahead log it cannot fold in beside the kept file, never deletes it', async () => {
    const source = await migratedDatabase(path.join(folder, 'source'));
    const backups = new BackupService(source, minuteClock(), new AuditLog(null, minuteClock()), null);
    const { file } = await backups.takeInto(path.join(folder, 'backups'), { kind: 'schedule' });
    await source.close();
    const dataDir = path.join(folder, 'data');
    fs.mkdirSync(dataDir);
    const database = path.join(dataDir, SQLITE_FILE_NAME);
    // A damaged database file that SQLite cannot open as one, and its log.
    fs.writeFileSync(database, 'not a database, damaged beyond what SQLite opens: '.repeat(200));
    const log = Buffer.from('the last writes, whatever they are');
    fs.writeFileSync(`${database}-wal`, log);
    const result = await restoreBackup(file, dataDir, new Date('2026-11-22T10:11:12Z'));
    expect(result.previousLog).toBe(`${database}.before-restore-2026-11-22T101112Z-wal`);
    expect(fs.readFileSync(result.previousLog as string)).toEqual(log);
    expect(result.previousLogProblem).toMatch(/could not be folded in|cannot be opened/);
    expect(fs.existsSync(`${database}-wal`)).toBe(false);
    checkBackupFile(database);
  });
});
