import type { FastifyInstance } from 'fastify';
import { hasPermission } from '../domain/principals.ts';
import { ProblemError } from '../domain/problem-error.ts';
import type { SessionService } from '../domain/sessions.ts';

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i;

/**
 * Enforces each endpoint's access rule from the catalogue: a bearer session for `session`,
 * and a Security permission on top for `permission` (seed §5.4; Write does not imply Read).
 * Runs after versioning, so a version's missing endpoint is a 404 for everyone.
 */
export function registerAccess(app: FastifyInstance, sessions: SessionService): void {
  app.addHook('onRequest', async (request, reply) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint || endpoint.access.kind === 'anonymous') return;

    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) {
      reply.header('WWW-Authenticate', 'Bearer realm="tachyon"');
      throw new ProblemError(
        401,
        'unauthenticated',
        'Sign-in required',
        'This endpoint needs a bearer token from POST /api/Consumer/Authentication.',
      );
    }
    const session = await sessions.authenticate(token);
    if (!session) {
      reply.header('WWW-Authenticate', 'Bearer realm="tachyon", error="invalid_token"');
      throw new ProblemError(
        401,
        'unauthenticated',
        'Session ended',
        'The bearer token is unknown, expired or revoked. Sign in again.',
      );
    }
    request.session = session;

    const { access } = endpoint;
    if (access.kind === 'permission' && !hasPermission(session.principal, access.entity, access.permission)) {
      throw new ProblemError(
        403,
        'forbidden',
        'Permission required',
        `This needs '${access.permission}' permission on '${access.entity}', which ${session.principal.userName} does not have.`,
        { extensions: { entity: access.entity, permission: access.permission } },
      );
    }
  });
}
