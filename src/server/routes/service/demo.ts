import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type DemoInstruction, endpoints, type Instruction } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import { createDemoAuthorizationRequest, listDemoPushes, resetDemoData } from '../../domain/demo/demo-data.ts';
import type { Principal } from '../../domain/identity/principals.ts';
import { reissueToken } from '../../domain/two-factor/instructions.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { codeRequestOf, createInstructionFor } from '../consumer/instructions.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** The demo actor's answer: the instruction as the real endpoints made it, in the demo's own shape. */
const demoInstruction = (instruction: Instruction, creator: Principal): DemoInstruction => ({
  Id: instruction.Id,
  Scheduled: instruction.Scheduled,
  CreatedBy: creator.userName,
  State: instruction.State,
  DeliveredTo: instruction.DevicesNotified,
});

/**
 * SPEC §3 "Demo mode": endpoints that let a person play the mobile device and the instruction author. The
 * instruction author goes through the same domain functions as POST /api/Instructions (one path, not two).
 */
export function demoRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, changes, config, delivery, audit } = services;
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
    ({ body, request }) => createDemoAuthorizationRequest(db, clock, body, sessionOf(request).principal, changes),
    perSession,
  );
  registerEndpoint(
    app,
    endpoints.demoCreateInstruction,
    async ({ body, request }) => {
      const { principal } = sessionOf(request);
      const name = body.Scheduled ? 'Demo scheduled instruction' : 'Demo instruction';
      const created = await createInstructionFor(request, services, { name, scheduled: body.Scheduled });
      return demoInstruction(created, principal);
    },
    perSession,
  );
  registerEndpoint(app, endpoints.demoReissueToken, async ({ params, request }) => {
    const { principal } = sessionOf(request);
    const reissued = await reissueToken(
      { db, clock, delivery },
      { caller: principal, id: params.id, request: codeRequestOf(request) },
    );
    return demoInstruction(reissued, principal);
  });
  registerEndpoint(app, endpoints.demoListPushes, ({ request }) => listDemoPushes(db, sessionOf(request).principal));
  registerEndpoint(app, endpoints.demoReset, async ({ request }) => {
    await audited(audit, request, { action: 'demo-reset', event: { entity: { type: 'Database', id: null } } }, () =>
      resetDemoData(db, clock, changes),
    );
    // The reset empties the history it would be recorded in; the log keeps who did it.
    request.log.warn({ user: sessionOf(request).principal.userName }, 'demo data reset');
  });
}
