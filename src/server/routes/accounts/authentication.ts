import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { audited, requestActor } from '../../audit/request-audit.ts';
import { submitToken } from '../../domain/two-factor/instructions.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { signInContext } from './sign-in-context.ts';

export function authenticationRoutes(
  app: FastifyInstance,
  { db, clock, sessions, changes, config, delivery, audit }: Services,
): void {
  registerEndpoint(
    app,
    endpoints.login,
    ({ body, request }) => sessions.login(body, signInContext(request)),
    // Every attempt costs a memory-hard hash; capping attempts per address keeps a storm from starving others.
    { rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 } },
  );

  registerEndpoint(app, endpoints.getSession, ({ request }) => sessions.view(sessionOf(request)));

  registerEndpoint(app, endpoints.endSession, ({ request }) => endSession({ sessions, audit, changes }, request));

  // #2-#4: every token checked is accepted or refused in the audit stream (a wrong code may be someone guessing).
  // A temporary code used in place of the pushed one says so (the person page lists its uses too).
  const checkToken = async (request: FastifyRequest, id: number, scheduled: boolean, token: string) =>
    (await checked(request, id, scheduled, token)).accepted;
  const checked = (request: FastifyRequest, id: number, scheduled: boolean, token: string) =>
    audited(
      audit,
      request,
      {
        action: 'token-accepted',
        failureAction: 'token-refused',
        event: { entity: { type: scheduled ? 'ScheduledInstruction' : 'Instruction', id } },
        after: ({ temporaryCodeId }) =>
          temporaryCodeId === null ? {} : { details: { temporaryCode: temporaryCodeId } },
      },
      () =>
        submitToken({
          db,
          clock,
          delivery,
          caller: sessionOf(request).principal,
          id,
          scheduled,
          token,
          clientAddress: signInContext(request).clientAddress,
        }),
    );
  registerEndpoint(app, endpoints.submitObsoleteToken, ({ body, request }) =>
    checkToken(request, body.InstructionId, false, body.Token),
  );
  registerEndpoint(app, endpoints.submitInstructionToken, ({ body, request }) =>
    checkToken(request, body.Id, false, body.Token),
  );
  registerEndpoint(app, endpoints.submitScheduledInstructionToken, ({ body, request }) =>
    checkToken(request, body.Id, true, body.Token),
  );
}

/** Signing out: the caller's session ends (recorded), and its live streams in any process with it. */
export async function endSession(
  { sessions, audit, changes }: Pick<Services, 'sessions' | 'audit' | 'changes'>,
  request: FastifyRequest,
): Promise<void> {
  const session = sessionOf(request);
  await sessions.revoke(session);
  audit.record({
    ...requestActor(request),
    action: 'sign-out',
    outcome: 'success',
    entity: { type: 'Account', id: session.principal.id },
  });
  // Its live streams, in any process, end now rather than at their next check.
  changes.announceAccessChange(session.principal.id);
}
