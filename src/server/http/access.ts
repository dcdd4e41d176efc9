import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint } from '../../shared/contract/index.ts';
import { hasPermission } from '../domain/principals.ts';
import { ProblemError } from '../domain/problem-error.ts';
import type { AuthenticatedSession, SessionService } from '../domain/sessions.ts';
import { guardEndpoints } from './endpoint-guard.ts';

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i;

/**
 * Enforces each endpoint's access rule from the catalogue: a bearer session for `session`,
 * and a Security permission on top for `permission` (seed §5.4; Write does not imply Read).
 * Runs after versioning, so a version's missing endpoint is a 404 for everyone.
 */
export function registerAccess(app: FastifyInstance, sessions: SessionService): void {
  // Callback style: a recently seen session is answered from memory without a promise; only a miss waits on the database.
  guardEndpoints(app, (endpoint) =>
    endpoint.access.kind === 'anonymous'
      ? null
      : (request, reply, done) => {
          const header = request.headers.authorization;
          const token = header ? BEARER.exec(header)?.[1] : undefined;
          if (!token) {
            reply.header('WWW-Authenticate', 'Bearer realm="tachyon"');
            return done(
              new ProblemError(
                401,
                'unauthenticated',
                'Sign-in required',
                'This endpoint needs a bearer token from POST /api/Consumer/Authentication.',
              ),
            );
          }
          const remembered = sessions.authenticateFromMemory(token);
          if (remembered !== undefined) return done(admission(request, reply, endpoint, remembered));
          sessions.authenticate(token).then((session) => done(admission(request, reply, endpoint, session)), done);
        },
  );
}

/** Attaches the session to the request, or gives the problem that refuses it. */
function admission(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: Endpoint,
  session: AuthenticatedSession | null,
): ProblemError | undefined {
  if (!session) {
    reply.header('WWW-Authenticate', 'Bearer realm="tachyon", error="invalid_token"');
    return new ProblemError(
      401,
      'unauthenticated',
      'Session ended',
      'The bearer token is unknown, expired or revoked. Sign in again.',
    );
  }
  request.session = session;
  const { access } = endpoint;
  if (access.kind === 'permission' && !hasPermission(session.principal, access.entity, access.permission)) {
    return new ProblemError(
      403,
      'forbidden',
      'Permission required',
      `This needs '${access.permission}' permission on '${access.entity}', which ${session.principal.userName} does not have.`,
      { extensions: { entity: access.entity, permission: access.permission } },
    );
  }
  return undefined;
}
