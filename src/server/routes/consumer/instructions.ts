import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints, type Instruction } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import {
  type CodeRequest,
  createInstruction,
  getInstruction,
  reissueToken,
} from '../../domain/two-factor/instructions.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { requestFacts } from '../../lib/request-facts.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** Where a code was asked for: the inbox shows it, so a person can tell whether the request was theirs. */
export function codeRequestOf(request: FastifyRequest): CodeRequest {
  const { clientAddress, userAgent } = requestFacts(request);
  return { clientAddress, userAgent };
}

/**
 * Creates an instruction for the signed-in caller, its code sent to their devices, and records it in the audit stream:
 * the endpoint and the demo's instruction author both create through here.
 */
export function createInstructionFor(
  request: FastifyRequest,
  { db, clock, delivery, audit }: Services,
  input: { name: string; scheduled: boolean },
): Promise<Instruction> {
  return audited(
    audit,
    request,
    {
      action: 'instruction-created',
      after: (created) => ({
        entity: { type: created.Scheduled ? 'ScheduledInstruction' : 'Instruction', id: created.Id },
      }),
    },
    () =>
      createInstruction(
        { db, clock, delivery },
        { creator: sessionOf(request).principal, input, request: codeRequestOf(request) },
      ),
  );
}

/** Instructions that need two-factor: thin routes over the same domain functions the demo actors call. */
export function instructionRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, delivery } = services;
  registerEndpoint(app, endpoints.createInstruction, ({ body, request }) =>
    createInstructionFor(request, services, { name: body.Name, scheduled: body.Scheduled }),
  );
  registerEndpoint(app, endpoints.getInstruction, ({ params, request }) =>
    getInstruction(db, clock, sessionOf(request).principal, params.id),
  );
  registerEndpoint(app, endpoints.reissueInstructionToken, ({ params, request }) =>
    reissueToken(
      { db, clock, delivery },
      { caller: sessionOf(request).principal, id: params.id, request: codeRequestOf(request) },
    ),
  );
}
