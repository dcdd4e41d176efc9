import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../../lib/problem-error.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fetch Metadata a browser sends with a request another site's page made. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/** The origin a URL or an Origin header names, normalised (letter case, default port); null when it names none. */
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Why a write came from another site's page, or null when nothing says so. The service's own origin is the scheme
 * and Host the request came with (through a trusted proxy, the ones it forwards). `Origin: null` comes from sandboxed
 * frames, data: URLs and redirects across origins: foreign too.
 */
function foreignWrite(request: FastifyRequest): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && FOREIGN_SITES.has(site)) return `Sec-Fetch-Site: ${site}`;
  const origin = request.headers.origin;
  if (origin === undefined) return null;
  const own = originOf(`${request.protocol}://${request.host}`);
  return own !== null && originOf(origin) === own ? null : `Origin: ${origin.slice(0, 200)}`;
}

/**
 * Refuses writes (POST, PUT, PATCH, DELETE) that a browser says another site's page made. Such a page can make
 * the browser send a form post or a body-less fetch with the credentials it keeps for this service (Basic
 * credentials once answered) without asking this service first. The service offers no CORS, so no legitimate
 * caller sends these; clients that are not browsers send neither header.
 */
export function registerCrossSiteWriteRefusal(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!WRITES.has(request.method)) return done();
    const why = foreignWrite(request);
    if (why === null) return done();
    // Behind a proxy that does not forward the scheme and host (no TRUST_PROXY), the dashboard's own writes land
    // here: the line says what was compared.
    request.log.warn({ origin: request.headers.origin, host: request.host }, 'cross-site write refused');
    done(
      new ProblemError(
        403,
        'cross-site-request',
        'Cross-site request refused',
        `This service takes no writes from other sites' pages (${why}). Behind a reverse proxy, set TRUST_PROXY and forward the scheme and host (X-Forwarded-Proto, X-Forwarded-Host).`,
      ),
    );
  });
}
