import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import {
  decideAuthorizationRequest,
  getAuthorizationRequest,
  listAuthorizationRequests,
} from '../../domain/consumer/authorization-requests.ts';
import { userKeyOf } from '../../domain/identity/principals.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { createListResponder } from './list-etag.ts';

export function authorizationRequestRoutes(
  app: FastifyInstance,
  { db, clock, changes, audit, pushSender, sessions }: Services,
): void {
  const respondWithList = createListResponder(db);
  registerEndpoint(app, endpoints.authorizeDevice, async ({ body, request }) => {
    return audited(
      audit,
      request,
      {
        action: 'authorization-decided',
        event: {
          entity: { type: 'AuthorizationRequest', id: body.RequestId },
          details: { authorized: body.Authorized },
        },
      },
      () => {
        const session = sessionOf(request);
        // Approving a device of one's own is a step-up action: a session must not vouch for a phone it enrolled.
        const approving = (owner: string) => {
          if (userKeyOf(owner) === session.principal.userKey) sessions.requireStepUp(session);
        };
        return decideAuthorizationRequest({
          db,
          clock,
          changes,
          decision: body,
          decidedBy: session.principal,
          pushSender,
          approving,
        });
      },
    );
  });

  // SPEC §3: getall omitted means false (pending only), which the published client relies on.
  registerEndpoint(app, endpoints.listAuthorizationRequests, ({ query, request, reply }) => {
    const all = query.getall ?? false;
    return respondWithList(request, reply, 'authorization_requests', all ? 'all' : 'pending', () =>
      listAuthorizationRequests(db, all),
    );
  });

  registerEndpoint(app, endpoints.getAuthorizationRequest, ({ params }) => getAuthorizationRequest(db, params.id));
}
