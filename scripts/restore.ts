// npm run restore -- FILE: puts a backup in place of the embedded database in DATA_DIR, with the service stopped (it
// refuses while the service runs). Checks the backup first, keeps the database it replaces beside it as
// tachyon.sqlite.before-restore-<time>, and removes stale -wal/-shm files. The next start migrates the restored file.
import { restoreBackup } from '../src/server/backup/restore.ts';
import { loadConfig } from '../src/server/config.ts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('Usage: npm run restore -- FILE   (run with the service stopped, and its DATA_DIR)\n');
  process.exit(2);
}
try {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL selects PostgreSQL: restore a pg_dump backup with pg_restore instead.');
  }
  const { database, previous } = await restoreBackup(file, config.dataDir);
  process.stdout.write(
    `Restored ${file} into ${database}.${previous ? ` The database it replaced is kept as ${previous}.` : ''}\n` +
      'Start the service: it migrates the restored database if it is older than the service.\n',
  );
} catch (error) {
  process.stderr.write(`Restore failed: ${(error as Error).message}\n`);
  process.exit(1);
}
