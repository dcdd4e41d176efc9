import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import { ProblemError } from '../../lib/problem-error.ts';

/** The endpoints whose bodies carry a password: signing in, changing one's own, setting another's. */
export const PASSWORD_ENDPOINTS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  endpoints.login,
  endpoints.changeOwnPassword,
  endpoints.resetAccountPassword,
  endpoints.createAccount,
]);

const BASIC = /^\s*Basic\s/i;

/**
 * Whether the trusted proxy in front says the client reached it over plain HTTP. Fastify reads X-Forwarded-Proto only
 * from a trusted proxy (otherwise the connection's own protocol). A request without the header is one the proxy did
 * not describe: it is let through, as most proxies that terminate TLS and forward only HTTPS do not send the header
 * on every hop.
 */
function forwardedOverPlainHttp(request: FastifyRequest): boolean {
  return request.headers['x-forwarded-proto'] !== undefined && request.protocol.toLowerCase() === 'http';
}

/**
 * Behind a trusted proxy, a password (a sign-in, a password change, HTTP Basic credentials on any request) that
 * reached the proxy over plain HTTP is refused with 403, before it is checked: the client learns to use HTTPS, and
 * a password that crossed a network in clear is never confirmed as right.
 */
export function registerHttpsRequired(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!forwardedOverPlainHttp(request)) return done();
    const endpoint = request.routeOptions.config.endpoint;
    const basic = BASIC.test(request.headers.authorization ?? '');
    if (!basic && !(endpoint && PASSWORD_ENDPOINTS.has(endpoint))) return done();
    done(
      new ProblemError(
        403,
        'https-required',
        'HTTPS required',
        `${basic ? 'HTTP Basic credentials' : 'A password'} reached the proxy in front of this service over plain HTTP ` +
          '(X-Forwarded-Proto: http), where anyone on the way can read it. Send it again over HTTPS (an https:// ' +
          'address); if it was a real password, consider changing it.',
      ),
    );
  });
}
