import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { exportActivity, listActivity } from '../../domain/activity/activity.ts';
import { requestContexts } from '../../domain/consumer/request-context.ts';
import { hasPermission } from '../../domain/identity/principals.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** Deciding with context, and the Activity page's events. */
export function activityRoutes(app: FastifyInstance, { db, audit }: Services): void {
  registerEndpoint(app, endpoints.authorizationRequestContexts, ({ query, request }) =>
    requestContexts(db, query.ids, sessionOf(request).principal.userName),
  );

  registerEndpoint(app, endpoints.listActivity, async ({ query, request }) => {
    // Every event that happened before this request is in the answer, however recently it was recorded.
    await audit.activity?.settled();
    // Sign-ins and account changes are account administration's to read, as on a person's page.
    const accountEvents = hasPermission(sessionOf(request).principal, 'Accounts', 'Read');
    return listActivity(db, query, { accountEvents });
  });

  // GET /api/Activity/Export: every matching event as CSV, streamed a batch at a time.
  registerEndpoint(app, endpoints.exportActivity, async ({ query, request, reply }) => {
    await audit.activity?.settled();
    const accountEvents = hasPermission(sessionOf(request).principal, 'Accounts', 'Read');
    const lines = await exportActivity(db, query, { accountEvents });
    const name = `activity-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
    return reply
      .header('content-type', endpoints.exportActivity.download.mediaType)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(lines));
  });
}
