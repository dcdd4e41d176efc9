import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { submitToken } from '../domain/instructions.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';
import { signInContext } from './sign-in-context.ts';

export function authenticationRoutes(app: FastifyInstance, { db, clock, sessions, config, delivery }: Services): void {
  registerEndpoint(
    app,
    endpoints.login,
    ({ body, request }) => sessions.login(body, signInContext(request)),
    // Every attempt costs a memory-hard hash; capping attempts per address keeps a storm from starving others.
    { rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 } },
  );

  registerEndpoint(app, endpoints.getSession, ({ request }) => sessions.view(sessionOf(request)));

  registerEndpoint(app, endpoints.endSession, async ({ request, reply }) => {
    await sessions.revoke(sessionOf(request));
    return reply.code(204).send();
  });

  registerEndpoint(app, endpoints.submitObsoleteToken, ({ body, request }) =>
    submitToken(db, clock, sessionOf(request).principal, body.InstructionId, false, body.Token, delivery),
  );
  registerEndpoint(app, endpoints.submitInstructionToken, ({ body, request }) =>
    submitToken(db, clock, sessionOf(request).principal, body.Id, false, body.Token, delivery),
  );
  registerEndpoint(app, endpoints.submitScheduledInstructionToken, ({ body, request }) =>
    submitToken(db, clock, sessionOf(request).principal, body.Id, true, body.Token, delivery),
  );
}
