import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEvent } from '../audit/audit-event.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { backupFileName } from './backup-name.ts';
import { scrubBackupCopy } from './backup-scrub.ts';
import { pgDumpCommand } from './pg-dump-command.ts';

export interface Snapshot {
  /** Where the copy is. */
  file: string;
  /** Its name as a backup (tachyon-YYYY-MM-DDTHHMMSSZ.sqlite3). */
  name: string;
  bytes: number;
}

/** Who asked for a backup: a person through the API, or the schedule. */
export type BackupTrigger =
  | { kind: 'request'; actor: Pick<AuditEvent, 'userName' | 'sourceIp' | 'userAgent'> }
  | { kind: 'schedule' };

/**
 * Consistent copies of the embedded database while the service runs, for the backup endpoint and the schedule alike.
 * SQLite's online backup copies the pages on the service's own connection: writes that commit meanwhile go into the
 * copy too, so it is the database as of one moment, never a half-written file.
 */
export class BackupService {
  private readonly database: DatabaseHandle;
  private readonly clock: Clock;
  private readonly audit: AuditLog;
  private readonly databaseUrl: string | null;

  constructor(database: DatabaseHandle, clock: Clock, audit: AuditLog, databaseUrl: string | null) {
    this.database = database;
    this.clock = clock;
    this.audit = audit;
    this.databaseUrl = databaseUrl;
  }

  /** Copies the database into `folder` under its backup name (written aside, then renamed: never a partial file there). */
  async takeInto(folder: string, trigger: BackupTrigger): Promise<Snapshot> {
    const { backup } = this.database;
    const name = backupFileName(this.clock());
    if (!backup) {
      const command = this.databaseUrl
        ? pgDumpCommand(this.databaseUrl, name.replace(/\.sqlite3$/, '.dump'))
        : 'pg_dump';
      this.record(trigger, { outcome: 'failure', reason: 'external-database' });
      throw new ProblemError(
        409,
        'external-database',
        'Back up PostgreSQL with pg_dump',
        `The service keeps its data in PostgreSQL, which this endpoint does not copy. Run: ${command} ` +
          '(the password comes from PGPASSWORD or ~/.pgpass).',
        { extensions: { command } },
      );
    }
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, name);
    const partial = `${file}.partial`;
    let scrubbed: ReturnType<typeof scrubBackupCopy>;
    try {
      await backup(partial);
      // The copy holds password and token hashes, as the database does.
      fs.chmodSync(partial, 0o600);
      scrubbed = scrubBackupCopy(partial);
      fs.renameSync(partial, file);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      this.record(trigger, { outcome: 'failure', reason: 'internal' });
      throw error;
    }
    const bytes = fs.statSync(file).size;
    this.record(trigger, {
      outcome: 'success',
      details: { file: name, bytes, trigger: trigger.kind, codesLeftOut: scrubbed.pendingCodes + scrubbed.inboxCodes },
    });
    return { file, name, bytes };
  }

  /** A copy in a private temporary folder, for streaming; `remove` deletes it (and the folder) afterwards. */
  async takeTemporary(trigger: BackupTrigger): Promise<Snapshot & { remove(): void }> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-backup-'));
    const remove = () => fs.rmSync(folder, { recursive: true, force: true });
    try {
      return { ...(await this.takeInto(folder, trigger)), remove };
    } catch (error) {
      remove();
      throw error;
    }
  }

  private record(trigger: BackupTrigger, outcome: Pick<AuditEvent, 'outcome' | 'reason' | 'details'>): void {
    this.audit.record({
      action: 'backup-taken',
      ...(trigger.kind === 'request' ? trigger.actor : {}),
      ...outcome,
      details: { trigger: trigger.kind, ...outcome.details },
      entity: { type: 'Database', id: this.database.dialect },
    });
  }
}
