import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, SQLITE_FILE_NAME } from '../db/database.ts';
import { checkBackupFile } from './backup-file.ts';

export interface RestoreResult {
  /** The database file now in place. */
  database: string;
  /** Where the database it replaced was kept; null when there was none. */
  previous: string | null;
}

/**
 * Puts a backup in place of the embedded database, with the service stopped: a running service holds the file
 * exclusively, so opening it here fails (DatabaseInUseError) and nothing is touched. The database it replaces is
 * first brought whole into its file (its write-ahead log checkpointed), then kept beside it as
 * `tachyon.sqlite.before-restore-<time>`. The service migrates the restored file at its next start.
 */
export async function restoreBackup(backupFile: string, dataDir: string, now = new Date()): Promise<RestoreResult> {
  checkBackupFile(backupFile);
  const database = path.join(dataDir, SQLITE_FILE_NAME);
  let previous: string | null = null;
  if (fs.existsSync(database)) {
    // Refuses while the service runs; closing folds the write-ahead log into the file and removes it.
    await openDatabase({ sqliteFile: database }).close();
    previous = `${database}.before-restore-${now
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/:/g, '')}`;
    fs.renameSync(database, previous);
  } else {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  // Left by a service that was killed: they belong to the database just moved aside, never to the backup.
  for (const stale of [`${database}-wal`, `${database}-shm`]) fs.rmSync(stale, { force: true });
  const incoming = `${database}.restoring`;
  fs.copyFileSync(backupFile, incoming);
  fs.chmodSync(incoming, 0o600);
  fs.renameSync(incoming, database);
  return { database, previous };
}
