import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { type CodeRequest, createInstruction, getInstruction, reissueToken } from '../domain/instructions.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

/** Where a code was asked for: the inbox shows it, so a person can tell whether the request was theirs. */
export function codeRequestOf(request: FastifyRequest): CodeRequest {
  const userAgent = request.headers['user-agent'];
  return { clientAddress: request.ip, userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent : null };
}

/** Instructions that need two-factor: thin routes over the same domain functions the demo actors call. */
export function instructionRoutes(app: FastifyInstance, { db, clock, delivery }: Services): void {
  registerEndpoint(app, endpoints.createInstruction, async ({ body, request, reply }) => {
    const created = await createInstruction(
      db,
      clock,
      sessionOf(request).principal,
      { name: body.Name, scheduled: body.Scheduled },
      codeRequestOf(request),
      delivery,
    );
    return reply.code(201).send(created);
  });
  registerEndpoint(app, endpoints.getInstruction, ({ params, request }) =>
    getInstruction(db, clock, sessionOf(request).principal, params.id),
  );
  registerEndpoint(app, endpoints.reissueInstructionToken, ({ params, request }) =>
    reissueToken(db, clock, sessionOf(request).principal, params.id, codeRequestOf(request), delivery),
  );
}
