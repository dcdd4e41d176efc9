import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PREFIX,
  endpoints,
  OIDC_CALLBACK_PATH,
  OIDC_HANDOVER_PARAM,
  OIDC_REFUSAL_PARAM,
  OIDC_START_PATH,
  type SingleSignOnRefusal,
} from '../../../shared/contract/index.ts';
import { safeRedirect } from '../../../shared/safe-redirect.ts';
import { OidcRefusal } from '../../domain/authentication/oidc/identity-provider.ts';
import type { OidcSignIn } from '../../domain/authentication/oidc/oidc-sign-in.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { endSession } from './authentication.ts';
import { signInContext } from './sign-in-context.ts';

/** Ties a sign-in under way to the browser that started it; sent only to these routes, never readable by scripts. */
const FLOW_COOKIE = 'tachyon_oidc_flow';
const COOKIE_PATH = `${API_PREFIX}/Consumer/Authentication/Oidc`;

function flowCookieOf(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=') || null;
  }
  return null;
}

function setFlowCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, secure: boolean): void {
  // Lax: the provider's redirect back is a top-level navigation from its site, which must carry the cookie.
  reply.header(
    'set-cookie',
    `${FLOW_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

/**
 * The sign-in page, showing why single sign-on was refused: by its reason code only, which the page turns into fixed
 * words (nothing the provider or the address bar says is reflected), with the page the person was going to kept for
 * their "Try again".
 */
function refusedAt(reason: SingleSignOnRefusal, returnTo: string | null): string {
  const search = new URLSearchParams({ [OIDC_REFUSAL_PARAM]: reason });
  if (returnTo) search.set('redirect', returnTo);
  return `/login?${search}`;
}

const notConfigured = () =>
  new ProblemError(404, 'not-found', 'Single sign-on is off', 'This service has no single sign-on (OIDC_ISSUER).');

/**
 * Single sign-on: the browser's start and callback (redirects and pages, not JSON), and the endpoints the dashboard
 * calls: whether it is offered, the one-time code exchanged for a session, and sign-out at the provider.
 */
export function singleSignOnRoutes(app: FastifyInstance, services: Services, oidc: OidcSignIn | null): void {
  const { config } = services;
  const secure = config.publicUrl.startsWith('https:');
  const info = oidc ? { Enabled: true, Name: oidc.name } : { Enabled: false, Name: null };
  registerEndpoint(app, endpoints.singleSignOn, () => info);

  const refused = (reply: FastifyReply, reason: SingleSignOnRefusal, returnTo: string | null = null) =>
    reply.header('cache-control', 'no-store').redirect(refusedAt(reason, returnTo), 303);

  // Each start saves a flow and each callback may ask the provider: capped per address as password sign-ins are.
  const limited = { config: { rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 } } };

  app.get(`${API_PREFIX}${OIDC_START_PATH}`, limited, async (request, reply) => {
    if (!oidc) return refused(reply, 'oidc-off');
    const { redirect } = request.query as { redirect?: unknown };
    const { url, flowCookie } = await oidc.start(safeRedirect(typeof redirect === 'string' ? redirect : null));
    setFlowCookie(reply, flowCookie, 600, secure);
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  });

  app.get(`${API_PREFIX}${OIDC_CALLBACK_PATH}`, limited, async (request, reply) => {
    if (!oidc) return refused(reply, 'oidc-off');
    const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
    const flowCookie = flowCookieOf(request);
    try {
      const { handoverCode, returnTo } = await oidc.callback(flowCookie, query, signInContext(request));
      // The same cookie now ties the one-time code to this browser; it lives as long as the code.
      setFlowCookie(reply, flowCookie ?? '', 60, secure);
      const login = new URLSearchParams({ [OIDC_HANDOVER_PARAM]: handoverCode, redirect: returnTo });
      return reply.header('cache-control', 'no-store').redirect(`/login?${login}`, 303);
    } catch (error) {
      if (!(error instanceof OidcRefusal)) throw error;
      setFlowCookie(reply, '', 0, secure);
      return refused(reply, error.reason, error.returnTo);
    }
  });

  registerEndpoint(
    app,
    endpoints.exchangeSingleSignOn,
    ({ body, request }) => {
      if (!oidc) throw notConfigured();
      return oidc.exchange(body.Code, flowCookieOf(request), signInContext(request));
    },
    limited.config,
  );

  registerEndpoint(app, endpoints.singleSignOut, async ({ request }) => {
    const idToken = await services.sessions.oidcIdTokenOf(sessionOf(request));
    await endSession(services, request);
    return { EndSessionUrl: oidc?.endSessionUrl(idToken) ?? null };
  });
}
