import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { createDemoAuthorizationRequest, listDemoPushes, resetDemoData } from '../domain/demo-data.ts';
import { createInstruction, reissueToken } from '../domain/instructions.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

/** SPEC §3 "Demo mode": endpoints that let a person play the mobile device and the instruction author. */
export function demoRoutes(app: FastifyInstance, { db, clock, changes, config }: Services): void {
  // Creation per session, not per address: one person cannot flood the queue or the history however they connect.
  const perSession = {
    rateLimit: {
      max: config.demoCreationsPerMinute,
      timeWindow: 60_000,
      hook: 'preHandler',
      keyGenerator: (request: FastifyRequest) => `demo-session:${sessionOf(request).tokenHash}`,
    },
  };
  registerEndpoint(
    app,
    endpoints.demoCreateAuthorizationRequest,
    async ({ body, request, reply }) => {
      const created = await createDemoAuthorizationRequest(db, clock, body, sessionOf(request).principal, changes);
      return reply.code(201).send(created);
    },
    perSession,
  );
  registerEndpoint(
    app,
    endpoints.demoCreateInstruction,
    async ({ body, request, reply }) =>
      reply.code(201).send(await createInstruction(db, clock, sessionOf(request).principal, body.Scheduled, true)),
    perSession,
  );
  registerEndpoint(app, endpoints.demoReissueToken, ({ params, request }) =>
    reissueToken(db, clock, sessionOf(request).principal, params.id, true),
  );
  registerEndpoint(app, endpoints.demoListPushes, ({ request }) => listDemoPushes(db, sessionOf(request).principal));
  registerEndpoint(app, endpoints.demoReset, async ({ request, reply }) => {
    await resetDemoData(db, clock, changes);
    // The reset empties the history it would be recorded in; the log keeps who did it.
    request.log.warn({ user: sessionOf(request).principal.userName }, 'demo data reset');
    return reply.code(204).send();
  });
}
