import type { FastifyInstance } from 'fastify';
import { endpoints, statusName } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import {
  getPushMessageUser,
  listPushMessageUsers,
  setPushMessageUserStatus,
} from '../../domain/consumer/push-users.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { createListResponder } from './list-etag.ts';

export function pushUserRoutes(app: FastifyInstance, { db, clock, changes, audit }: Services): void {
  const respondWithList = createListResponder(db);
  registerEndpoint(app, endpoints.listPushMessageUsers, ({ request, reply }) =>
    respondWithList(request, reply, 'push_message_users', 'all', () => listPushMessageUsers(db)),
  );
  registerEndpoint(app, endpoints.getPushMessageUser, ({ params }) => getPushMessageUser(db, params.id));
  registerEndpoint(app, endpoints.updatePushMessageUser, async ({ body, request }) => {
    return audited(
      audit,
      request,
      {
        action: 'push-user-status-changed',
        event: {
          entity: { type: 'PushMessageUser', id: body.Id },
          details: { status: statusName(body.Status) },
        },
      },
      () => setPushMessageUserStatus(db, clock, body.Id, body.Status, sessionOf(request).principal.userName, changes),
    );
  });
}
