import SQLite from 'better-sqlite3';

/** A file that is not a usable backup of this service; its message says why, for the operator. */
export class BackupFileError extends Error {}

/**
 * Checks that a file is a whole SQLite database (PRAGMA integrity_check) and one of this service (it has the
 * migrations' table): what a backup must be before it is kept or restored.
 */
export function checkBackupFile(file: string): void {
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupFileError(`${file} cannot be opened as a database: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      throw new BackupFileError(`${file} is not a SQLite database: ${(error as Error).message}`);
    }
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new BackupFileError(`${file} failed PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`);
    }
    const migrations = sqlite
      .prepare("select count(*) as count from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get() as { count: number };
    if (migrations.count === 0) {
      throw new BackupFileError(
        `${file} is a SQLite database, but not one of this service (it has no migrations table).`,
      );
    }
  } finally {
    sqlite.close();
  }
}
