import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { createDemoAuthorizationRequest, listDemoPushes, resetDemoData } from '../domain/demo-data.ts';
import { createInstruction, reissueToken } from '../domain/instructions.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

/** SPEC §3 "Demo mode": endpoints that let a person play the mobile device and the instruction author. */
export function demoRoutes(app: FastifyInstance, { db, clock, changes }: Services): void {
  registerEndpoint(app, endpoints.demoCreateAuthorizationRequest, async ({ body, reply }) => {
    const created = await createDemoAuthorizationRequest(db, clock, body);
    changes.publish({ Type: 'authorization-request', Id: created.Id, Status: 'Pending', ChangedBy: null });
    return reply.code(201).send(created);
  });
  registerEndpoint(app, endpoints.demoCreateInstruction, async ({ body, request, reply }) =>
    reply.code(201).send(await createInstruction(db, clock, sessionOf(request).principal, body.Scheduled, true)),
  );
  registerEndpoint(app, endpoints.demoReissueToken, ({ params, request }) =>
    reissueToken(db, clock, sessionOf(request).principal, params.id, true),
  );
  registerEndpoint(app, endpoints.demoListPushes, ({ request }) => listDemoPushes(db, sessionOf(request).principal));
  registerEndpoint(app, endpoints.demoReset, async ({ reply }) => {
    await resetDemoData(db, clock);
    changes.publish({ Type: 'reset' });
    return reply.code(204).send();
  });
}
