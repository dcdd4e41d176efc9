import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { requireWithinReach } from '../../domain/accounts/containment.ts';
import { passkeysElsewhere } from '../../domain/authentication/passkeys/relying-party.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { signInContext } from './sign-in-context.ts';

/** Passkeys, recovery codes, the second step after a password, step-up, and an administrator's reset. */
export function signInMethodRoutes(app: FastifyInstance, { config, db, signInMethods: methods }: Services): void {
  const rp = methods.relyingParty;
  // A page opened at another address than PUBLIC_URL's is told where passkeys work, before the browser refuses.
  const atPasskeyAddress = (request: FastifyRequest) => {
    const why = passkeysElsewhere(rp, request.headers.origin);
    if (why) throw new ProblemError(409, 'passkeys-unavailable', 'Passkeys unavailable here', why);
  };
  // Like the password step: every attempt costs work, so attempts per address are capped.
  const signInRate = { rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 } };

  registerEndpoint(
    app,
    endpoints.passkeySignInOptions,
    ({ body, request }) => {
      atPasskeyAddress(request);
      return methods.signInOptions(body.Ticket);
    },
    signInRate,
  );
  registerEndpoint(
    app,
    endpoints.passkeySignIn,
    ({ body, request }) => methods.passkeySignIn(body.Response, body.Ticket, signInContext(request)),
    signInRate,
  );
  registerEndpoint(
    app,
    endpoints.temporaryCodeSignIn,
    ({ body, request }) => methods.temporaryCodeSignIn(body.Ticket, body.Code, signInContext(request)),
    signInRate,
  );
  registerEndpoint(
    app,
    endpoints.recoveryCodeSignIn,
    ({ body, request }) => methods.recoveryCodeSignIn(body.Ticket, body.Code, signInContext(request)),
    signInRate,
  );
  registerEndpoint(
    app,
    endpoints.deviceCodeSend,
    ({ body, request }) => methods.sendSignInCode(body.Ticket, signInContext(request)),
    signInRate,
  );
  registerEndpoint(
    app,
    endpoints.deviceCodeSignIn,
    ({ body, request }) => methods.deviceCodeSignIn(body.Ticket, body.Code, signInContext(request)),
    signInRate,
  );
  registerEndpoint(app, endpoints.stepUpDeviceCode, ({ request }) =>
    methods.sendStepUpCode(sessionOf(request), signInContext(request)),
  );
  registerEndpoint(app, endpoints.stepUpOptions, ({ request }) => {
    atPasskeyAddress(request);
    return methods.stepUpOptions(sessionOf(request));
  });
  registerEndpoint(app, endpoints.stepUp, ({ body, request }) =>
    methods.stepUp(sessionOf(request), body, signInContext(request)),
  );
  registerEndpoint(app, endpoints.ownSignInMethods, ({ request }) => methods.ownMethods(sessionOf(request).principal));
  registerEndpoint(app, endpoints.passkeyRegistrationOptions, ({ request }) => {
    atPasskeyAddress(request);
    return methods.registrationOptions(sessionOf(request));
  });
  registerEndpoint(app, endpoints.addPasskey, ({ body, request }) =>
    methods.addPasskey(sessionOf(request), body.Name, body.Response, signInContext(request)),
  );
  registerEndpoint(app, endpoints.renamePasskey, ({ params, body, request }) =>
    methods.renamePasskey(sessionOf(request), params.id, body.Name),
  );
  registerEndpoint(app, endpoints.removePasskey, ({ params, request }) =>
    methods.removePasskey(sessionOf(request), params.id, signInContext(request)),
  );
  registerEndpoint(app, endpoints.newRecoveryCodes, async ({ request }) => {
    const codes = await methods.newRecoveryCodes(sessionOf(request), signInContext(request));
    return { Codes: codes };
  });
  registerEndpoint(app, endpoints.resetSignInMethods, async ({ params, request }) => {
    const { principal } = sessionOf(request);
    const containment = await requireWithinReach(db, principal, endpoints.resetSignInMethods.access, params.id);
    return methods.reset(params.id, principal, signInContext(request), containment);
  });
}
