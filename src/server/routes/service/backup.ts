import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { requestActor } from '../../audit/request-audit.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';

/** Backups: the endpoint (the service and its schedule are built with the others, app/services.ts). */
export function backupRoutes(app: FastifyInstance, { backups }: Pick<Services, 'backups'>): void {
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
