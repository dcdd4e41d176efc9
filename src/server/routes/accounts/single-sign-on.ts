import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PREFIX,
  endpoints,
  OIDC_CALLBACK_PATH,
  OIDC_HANDOVER_PARAM,
  OIDC_START_PATH,
} from '../../../shared/contract/index.ts';
import { safeRedirect } from '../../../shared/safe-redirect.ts';
import { type OidcFailureReason, OidcRefusal } from '../../domain/sign-in/oidc/identity-provider.ts';
import type { OidcSignIn } from '../../domain/sign-in/oidc/oidc-sign-in.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { endSession } from './authentication.ts';
import { signInContext } from './sign-in-context.ts';
import { singleSignOnErrorPage } from './single-sign-on-page.ts';

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

/** What the person is shown for each refusal: the page's title, and its status. */
const REFUSALS: Record<OidcFailureReason, { title: string; status: number }> = {
  'oidc-state-mismatch': { title: 'Sign-in not recognised', status: 400 },
  'oidc-provider-error': { title: 'The identity provider did not sign you in', status: 400 },
  'oidc-code-invalid': { title: 'Sign-in code refused', status: 400 },
  'oidc-token-invalid': { title: 'Sign-in answer not trusted', status: 400 },
  'oidc-provider-unavailable': { title: 'Identity provider not answering', status: 504 },
  'oidc-no-username': { title: 'No user name from the identity provider', status: 400 },
  'oidc-groups-invalid': { title: 'Groups not readable', status: 400 },
  'oidc-no-group': { title: 'No access to this dashboard', status: 403 },
  'oidc-local-name': { title: 'Account signs in with a password', status: 403 },
  'oidc-disabled': { title: 'Account disabled', status: 403 },
};

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

  const page = (reply: FastifyReply, status: number, title: string, message: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(singleSignOnErrorPage(title, message));

  // Each start saves a flow and each callback may ask the provider: capped per address as password sign-ins are.
  const limited = { config: { rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 } } };

  app.get(`${API_PREFIX}${OIDC_START_PATH}`, limited, async (request, reply) => {
    if (!oidc) return page(reply, 404, 'Single sign-on is off', 'This service has no single sign-on configured.');
    const { redirect } = request.query as { redirect?: unknown };
    const { url, flowCookie } = await oidc.start(safeRedirect(typeof redirect === 'string' ? redirect : null));
    setFlowCookie(reply, flowCookie, 600, secure);
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  });

  app.get(`${API_PREFIX}${OIDC_CALLBACK_PATH}`, limited, async (request, reply) => {
    if (!oidc) return page(reply, 404, 'Single sign-on is off', 'This service has no single sign-on configured.');
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
      const { title, status } = REFUSALS[error.reason];
      return page(reply, status, title, error.message);
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
