// npm run backup -- OUT: downloads a consistent copy of the running service's database (GET /api/Admin/Backup) into
// OUT and checks it with PRAGMA integrity_check. TACHYON_URL (default http://127.0.0.1:8080), and TACHYON_TOKEN or
// TACHYON_USERNAME/TACHYON_PASSWORD of an account with Accounts Write. Exits 1 with the reason when anything fails.
import { backupClientOptions, downloadBackup } from '../src/server/backup/backup-client.ts';

const out = process.argv[2];
if (!out) {
  process.stderr.write('Usage: npm run backup -- OUT   (for example: npm run backup -- /backups/tachyon.sqlite3)\n');
  process.exit(2);
}
try {
  const { file, bytes } = await downloadBackup(backupClientOptions(process.env), out);
  process.stdout.write(`Backup written to ${file} (${bytes} bytes); integrity check ok.\n`);
} catch (error) {
  process.stderr.write(`Backup failed: ${(error as Error).message}\n`);
  process.exit(1);
}
