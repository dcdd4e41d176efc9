import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { getAuthorizationRequest } from '../../domain/consumer/authorization-requests.ts';
import { listHistory } from '../../domain/consumer/history.ts';
import { getPushMessageUser } from '../../domain/consumer/push-users.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';

export function historyRoutes(app: FastifyInstance, { db }: Services): void {
  registerEndpoint(app, endpoints.history, async ({ query }) => {
    // An unknown id is a 404, not an empty history.
    if (query.entity === 'AuthorizationRequest') await getAuthorizationRequest(db, query.id);
    else await getPushMessageUser(db, query.id);
    return listHistory(db, query.entity, query.id);
  });
}
