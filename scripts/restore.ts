// npm run restore -- FILE: puts a backup in place of the embedded database in DATA_DIR, with the service stopped (it
// refuses while the service runs). Checks the backup first, keeps the database it replaces beside it as
// tachyon.sqlite.before-restore-<time> with every write it had acknowledged, and ends every session, device
// credential and unused enrolment code of the restored copy. Says so here and in the audit stream (AUDIT_LOG).
import { openAuditLog } from '../src/server/audit/audit-log.ts';
import { restoreBackup } from '../src/server/backup/restore.ts';
import { restoreReport } from '../src/server/backup/restore-report.ts';
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
  const result = await restoreBackup(file, config.dataDir);
  const { audit, close } = openAuditLog(config.auditLog, () => new Date(), {});
  audit.record({
    action: 'backup-restored',
    outcome: 'success',
    entity: { type: 'Database', id: 'sqlite' },
    details: {
      file,
      kept: result.previous,
      keptLog: result.previousLog,
      sessionsEnded: result.ended.sessions,
      devicesEnded: result.ended.devices,
      enrollmentCodesDropped: result.ended.enrollmentCodes,
    },
  });
  await close();
  process.stdout.write(restoreReport(file, result));
} catch (error) {
  process.stderr.write(`Restore failed: ${(error as Error).message}\n`);
  process.exit(1);
}
