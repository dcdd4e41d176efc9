// npm run reset-sign-in -- 'CORP\root': recovers an account whose second factor is gone (the break-glass
// administrator's passkey, lost) without SQL. Its passkeys, recovery codes, devices and pending second steps go and its sessions
// end; its password stays, and the next sign-in asks for a new second factor. Written to the account's history and the
// audit stream (AUDIT_LOG). The embedded database is refused while the service runs (it holds the file); PostgreSQL
// takes it in one transaction beside running services, which are told at once.
import fs from 'node:fs';
import path from 'node:path';
import { ActivityStore } from '../src/server/audit/activity-store.ts';
import { openAuditLog } from '../src/server/audit/audit-log.ts';
import { loadConfig } from '../src/server/config.ts';
import { DatabaseInUseError, openDatabase, SQLITE_FILE_NAME } from '../src/server/db/database.ts';
import { COMMAND_LINE_ACTOR, resetSignInByUserName } from '../src/server/domain/authentication/reset-sign-in.ts';
import { announceAccessChangeOnce } from '../src/server/domain/core/postgres-change-feed.ts';

const userName = process.argv[2]?.trim();
if (!userName) {
  process.stderr.write(
    "Usage: npm run reset-sign-in -- 'DOMAIN\\name'   (with the service's DATA_DIR or DATABASE_URL; for the embedded\n" +
      'database, with the service stopped)\n',
  );
  process.exit(2);
}
try {
  const config = loadConfig();
  const sqliteFile = path.join(config.dataDir, SQLITE_FILE_NAME);
  if (!config.databaseUrl && !fs.existsSync(sqliteFile)) {
    throw new Error(
      `There is no database in ${config.dataDir}: run this with the service's DATA_DIR (or DATABASE_URL).`,
    );
  }
  const handle = openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { sqliteFile });
  try {
    const now = new Date();
    const reset = await resetSignInByUserName(handle.db, userName, now);
    if (!reset) throw new Error(`No account is named ${userName}. Check the name as the Accounts page shows it.`);
    if (handle.dialect === 'postgres') await announceAccessChangeOnce(handle.db, reset.id);
    // Kept for the Activity page too, as the service keeps every event it records.
    const activity = new ActivityStore(handle.db, (error) =>
      process.stderr.write(`The Activity page missed this reset: ${(error as Error).message}\n`),
    );
    const { audit, close } = openAuditLog(config.auditLog, () => now, { activity });
    audit.record({
      action: 'sign-in-methods-reset',
      outcome: 'success',
      userName: COMMAND_LINE_ACTOR,
      entity: { type: 'Account', id: reset.id },
      details: {
        account: reset.userName,
        passkeysRemoved: reset.passkeys,
        recoveryCodesRemoved: reset.recoveryCodes,
        devicesRemoved: reset.devices,
        sessionsEnded: reset.sessions,
      },
    });
    await close();
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    process.stdout.write(
      `Reset the sign-in of ${reset.userName}: removed ${plural(reset.passkeys, 'passkey')}, ` +
        `${plural(reset.recoveryCodes, 'recovery code')} and ${plural(reset.devices, 'device')}, ` +
        `ended ${plural(reset.sessions, 'session')}.\n` +
        'They sign in with their password; where a second factor is required, they are asked to add one first.\n',
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  const why =
    error instanceof DatabaseInUseError
      ? 'the service is running and holds its embedded database (DATA_DIR). Stop it, run this again, then start it.'
      : (error as Error).message;
  process.stderr.write(`Reset failed: ${why}\n`);
  process.exit(1);
}
