import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DatabaseInUseError, migrateToLatest, openDatabase, SQLITE_FILE_NAME } from '../db/database.ts';
import { checkBackupFile } from './backup-file.ts';
import { endRestoredAccess, type RestoredAccessEnded } from './restored-access.ts';

export interface RestoreResult {
  /** The database file now in place. */
  database: string;
  /** Where the database it replaced was kept; null when there was none. */
  previous: string | null;
  /**
   * The replaced database's write-ahead log, when it could not be folded into the kept file: kept beside it under the
   * name SQLite looks for (`<kept file>-wal`), so opening the kept file reads it. Null when it was folded in.
   */
  previousLog: string | null;
  /** Why the log could not be folded in; null when it was (or there was none). */
  previousLogProblem: string | null;
  /** What the restore ended so that nothing ended after the backup comes back to life. */
  ended: RestoredAccessEnded;
}

/**
 * Puts a backup in place of the embedded database, with the service stopped: a running service holds the file
 * exclusively, so opening it here fails (DatabaseInUseError) and nothing is touched. The database it replaces is first
 * brought whole into its file (its write-ahead log checkpointed, whatever way the service stopped: a service killed
 * leaves its last writes in the log), then kept beside it as `tachyon.sqlite.before-restore-<time>`. A log that cannot
 * be folded in is kept beside the kept file, never deleted.
 *
 * The restored copy is brought to the current schema, and every session, device credential and unused enrolment code
 * in it ends: the backup still holds those that ended after it was taken (signed out, removed, used).
 */
export async function restoreBackup(backupFile: string, dataDir: string, now = new Date()): Promise<RestoreResult> {
  checkBackupFile(backupFile);
  const database = path.join(dataDir, SQLITE_FILE_NAME);
  const log = `${database}-wal`;
  let previous: string | null = null;
  let previousLog: string | null = null;
  let previousLogProblem: string | null = null;
  // SQLite deletes a log it cannot use when it closes the database (a damaged file, say): a copy of the log as it
  // was is taken first, and it is what is kept whenever folding in fails.
  const logCopy = `${log}.before-restore`;
  const hadLog = fs.existsSync(log) && fs.statSync(log).size > 0;
  if (hadLog) fs.copyFileSync(log, logCopy);
  try {
    if (fs.existsSync(database)) {
      // Refuses while the service runs.
      previousLogProblem = foldWriteAheadLog(database);
      previous = `${database}.before-restore-${now
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')
        .replace(/:/g, '')}`;
      fs.renameSync(database, previous);
    } else {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      if (hadLog) previousLogProblem = 'the database it belongs to was missing';
    }
    if (hadLog && previousLogProblem !== null) {
      // Beside the kept file under the name SQLite looks for, so opening that file reads it.
      previousLog = `${previous ?? `${database}.before-restore-${now.getTime()}`}-wal`;
      fs.renameSync(logCopy, previousLog);
    }
  } finally {
    fs.rmSync(logCopy, { force: true });
  }
  // Folded into the kept file (or empty): it belongs to the database moved aside, never to the backup.
  fs.rmSync(log, { force: true });
  // The shared-memory index is rebuilt from the log whenever one is opened: nothing is lost with it.
  fs.rmSync(`${database}-shm`, { force: true });
  const incoming = `${database}.restoring`;
  fs.copyFileSync(backupFile, incoming);
  fs.chmodSync(incoming, 0o600);
  fs.renameSync(incoming, database);

  const restored = openDatabase({ sqliteFile: database });
  try {
    await migrateToLatest(restored);
    const ended = await endRestoredAccess(restored.db, now);
    return { database, previous, previousLog, previousLogProblem, ended };
  } finally {
    await restored.close();
  }
}

/**
 * Opens the database as the service would, which recovers its write-ahead log, then checkpoints every page of the log
 * into the file and leaves the log mode, which removes the log. Answers null once the file holds everything, else why
 * not (the log file then stays where it is). Throws DatabaseInUseError while another process holds the file.
 */
function foldWriteAheadLog(file: string): string | null {
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, { fileMustExist: true });
  } catch (error) {
    return `it cannot be opened: ${(error as Error).message}`;
  }
  try {
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.pragma('busy_timeout = 5000');
    try {
      // The first access takes the lock, and recovers the log.
      sqlite.pragma('journal_mode = WAL');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(file);
      throw error;
    }
    const [checkpoint] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    if (checkpoint?.busy !== 0 || checkpoint.checkpointed !== checkpoint.log) {
      return `its write-ahead log was not checkpointed (${JSON.stringify(checkpoint)})`;
    }
    sqlite.pragma('journal_mode = DELETE');
    return null;
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw error;
    return `its write-ahead log could not be folded in: ${(error as Error).message}`;
  } finally {
    sqlite.close();
  }
}
