import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BACKGROUND_REQUEST_HEADER,
  type Endpoint,
  SESSION_ABSOLUTE_EXPIRES_HEADER,
  SESSION_IDLE_EXPIRES_HEADER,
  SESSION_IDLE_TIMEOUT_HEADER,
} from '../../shared/contract/index.ts';
import { hasPermission } from '../domain/principals.ts';
import { ProblemError } from '../domain/problem-error.ts';
import type { AuthenticatedSession, RequestActivity, SessionService } from '../domain/sessions.ts';
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
          const activity = activityOf(request);
          const remembered = sessions.authenticateFromMemory(token, activity);
          if (remembered !== undefined) return done(admission(request, reply, endpoint, remembered, sessions));
          sessions
            .authenticate(token, activity)
            .then((session) => done(admission(request, reply, endpoint, session, sessions)), done);
        },
  );
}

/** Traffic the person did not cause says so; it is served without extending the idle deadline. */
export function activityOf(request: FastifyRequest): RequestActivity {
  return request.headers[BACKGROUND_REQUEST_HEADER.toLowerCase()] === '1' ? 'background' : 'person';
}

/** Attaches the session to the request, or gives the problem that refuses it. */
function admission(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: Endpoint,
  session: AuthenticatedSession | null,
  sessions: SessionService,
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
  // The deadlines as of this request, so a client keeps them current without asking (README "Sessions").
  // ISO 8601 with its zone, which every HTTP client's date parser reads without guessing.
  reply.header(SESSION_IDLE_EXPIRES_HEADER, session.idleExpires.toISOString());
  reply.header(SESSION_ABSOLUTE_EXPIRES_HEADER, session.absoluteExpires.toISOString());
  reply.header(SESSION_IDLE_TIMEOUT_HEADER, String(sessions.idleSeconds));
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
