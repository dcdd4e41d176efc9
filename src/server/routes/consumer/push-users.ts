import type { FastifyInstance } from 'fastify';
import { endpoints, type PushUserStatus, PushUserStatusCode, statusName } from '../../../shared/contract/index.ts';
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

export function pushUserRoutes(app: FastifyInstance, { db, clock, changes, audit, sessions }: Services): void {
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
      () => {
        const session = sessionOf(request);
        // A Disabled (lost) device made Active again is a step-up action: it would receive codes once more.
        const judge = (from: PushUserStatus) => {
          if (from === PushUserStatusCode.Disabled && body.Status === PushUserStatusCode.Active) {
            sessions.requireStepUp(session);
          }
        };
        return setPushMessageUserStatus({
          db,
          clock,
          changes,
          id: body.Id,
          status: body.Status,
          changedBy: session.principal.userName,
          judge,
        });
      },
    );
  });
}
