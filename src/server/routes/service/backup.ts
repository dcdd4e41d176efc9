import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import type { AuditLog } from '../../audit/audit-log.ts';
import { requestActor } from '../../audit/request-audit.ts';
import { startBackupSchedule } from '../../backup/backup-schedule.ts';
import { BackupService } from '../../backup/backup-service.ts';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Clock } from '../../lib/clock.ts';

/** Backups: the endpoint, and the schedule when BACKUP_DIR is set (stopped at close). */
export function backupRoutes(
  app: FastifyInstance,
  { database, config, clock, audit }: { database: DatabaseHandle; config: Config; clock: Clock; audit: AuditLog },
): void {
  const backups = new BackupService(database, clock, audit, config.databaseUrl);
  if (config.backupDir !== null) {
    const schedule = startBackupSchedule(backups, {
      folder: config.backupDir,
      intervalMs: config.backupIntervalMinutes * 60_000,
      keep: config.backupKeep,
      onError: (error) => app.log.error({ err: error }, `scheduled backup into ${config.backupDir} failed`),
    });
    app.addHook('onClose', async () => schedule.stop());
  }

  // GET /api/Admin/Backup: the database as one file to save, its temporary copy removed once sent (or abandoned).
  registerEndpoint(app, endpoints.backup, async ({ request, reply }) => {
    const snapshot = await backups.takeTemporary({ kind: 'request', actor: requestActor(request) });
    const stream = fs.createReadStream(snapshot.file);
    stream.once('close', snapshot.remove);
    return reply
      .header('content-type', endpoints.backup.download.mediaType)
      .header('content-disposition', `attachment; filename="${snapshot.name}"`)
      .header('content-length', snapshot.bytes)
      .send(stream);
  });
}
