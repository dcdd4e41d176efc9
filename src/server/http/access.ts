import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BACKGROUND_REQUEST_HEADER,
  type Endpoint,
  permissionAccess,
  SESSION_ABSOLUTE_EXPIRES_HEADER,
  SESSION_IDLE_EXPIRES_HEADER,
  SESSION_IDLE_TIMEOUT_HEADER,
  TOKEN_HEADER,
} from '../../shared/contract/index.ts';
import type { BasicCredentials } from '../domain/authentication/basic-credentials.ts';
import type { AuthenticatedSession, RequestActivity, SessionService } from '../domain/authentication/sessions.ts';
import { apiAccountInBrowser } from '../domain/authentication/sign-in.ts';
import type { AuthenticatedDevice } from '../domain/devices/devices.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { servedAtRoot } from './api-path.ts';
import { isBrowserRequest } from './browser-request.ts';
import { guardEndpoints } from './endpoint-guard.ts';

const TOKEN = /^[A-Za-z0-9._~+/=-]{1,512}$/;
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i;
const BASIC = /^Basic\s+([A-Za-z0-9+/]{1,2800}={0,2})\s*$/i;
/** `Authorization: Device <DeviceToken>`: an enrolled device's own credential (devices.ts). */
const DEVICE = /^Device\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i;

/** The session token header as Node names it (lower case), accepted beside Authorization: Bearer (SPEC §3). */
export const TOKEN_HEADER_NAME = TOKEN_HEADER.toLowerCase();

type Credentials =
  | { kind: 'token'; token: string }
  | { kind: 'basic'; userName: string; password: string }
  | { kind: 'none' };

/** What the request presents, best first: a bearer token, the platform's token header, then Basic credentials. */
function credentialsOf(request: FastifyRequest, basicAuth: boolean): Credentials {
  const authorization = request.headers.authorization;
  const bearer = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (bearer) return { kind: 'token', token: bearer };
  const header = request.headers[TOKEN_HEADER_NAME];
  const platformToken = typeof header === 'string' ? header.trim() : undefined;
  if (platformToken && TOKEN.test(platformToken)) return { kind: 'token', token: platformToken };
  const basic = basicAuth && authorization ? BASIC.exec(authorization)?.[1] : undefined;
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { kind: 'basic', userName: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { kind: 'none' };
}

/**
 * 401 answers name the schemes that work. A Basic challenge makes a browser show its own password prompt over the
 * dashboard, and keep the credentials past "Sign out". So Basic is offered only at the site root, where the
 * published SDK calls (the dashboard calls under /api), and even there not to a client that says it is a browser
 * (Sec-Fetch-Site; browsers send it only to trustworthy origins, so its absence proves nothing on plain HTTP).
 * Basic credentials are accepted on every path all the same.
 */
function challenge(request: FastifyRequest, reply: FastifyReply, basicAuth: boolean, invalidToken: boolean): void {
  const bearer = `Bearer realm="tachyon"${invalidToken ? ', error="invalid_token"' : ''}`;
  const offerBasic = basicAuth && request.headers['sec-fetch-site'] === undefined && servedAtRoot(request.url);
  reply.header('WWW-Authenticate', offerBasic ? [bearer, 'Basic realm="Tachyon", charset="UTF-8"'] : bearer);
}

/** Finds the device a credential names, or throws the 401 problem that refuses it. */
export type DeviceAuthenticator = (credential: string) => Promise<AuthenticatedDevice>;

const deviceCredentialOf = (request: FastifyRequest) => {
  const authorization = request.headers.authorization;
  return authorization ? (DEVICE.exec(authorization)?.[1] ?? null) : null;
};

/**
 * Enforces each endpoint's access rule from the catalogue: a session for `session`, and a Security permission
 * on top for `permission` (seed §5.4; Write does not imply Read). A session comes from a token
 * (`Authorization: Bearer` or `X-Tachyon-Authenticate`) or, unless BASIC_AUTH=off, from Basic credentials.
 * A device's endpoints take its own credential instead (`Authorization: Device`), and enrolment takes either a
 * session or nothing at all (its body then holds an enrolment code, which the domain checks).
 * Runs after versioning, so a version's missing endpoint is a 404 for everyone.
 */
export function registerAccess(
  app: FastifyInstance,
  sessions: SessionService,
  basic: BasicCredentials | null,
  authenticateDevice: DeviceAuthenticator,
): void {
  const basicAuth = basic !== null;
  const needsSignIn = `This endpoint needs a session token from POST /api/Consumer/Authentication, sent as Authorization: Bearer or X-Tachyon-Authenticate${basicAuth ? ', or HTTP Basic credentials' : ''}.`;
  const admitDevice = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const credential = deviceCredentialOf(request);
    if (credential === null) {
      reply.header('WWW-Authenticate', 'Device realm="tachyon"');
      return done(
        new ProblemError(
          401,
          'unauthenticated',
          'Device credential required',
          'This endpoint is for enrolled devices: send Authorization: Device <DeviceToken> from POST /api/Device/Enrollments.',
        ),
      );
    }
    authenticateDevice(credential).then(
      (device) => {
        request.device = device;
        done();
      },
      (error: unknown) => {
        if (error instanceof ProblemError && error.status === 401) {
          reply.header('WWW-Authenticate', 'Device realm="tachyon", error="invalid_token"');
        }
        done(error as Error);
      },
    );
  };
  // Callback style: a recently seen session is answered from memory without a promise; only a miss waits on the database.
  guardEndpoints(app, (endpoint) =>
    endpoint.access.kind === 'anonymous'
      ? null
      : (request, reply, done) => {
          const { kind } = endpoint.access;
          if (kind === 'device' || (kind === 'session-or-device' && deviceCredentialOf(request) !== null)) {
            return admitDevice(request, reply, done);
          }
          const credentials = credentialsOf(request, basicAuth);
          // Enrolling from a link: no credentials at all is allowed through; the code in the body decides.
          if (credentials.kind === 'none' && kind === 'session-or-enrollment-code') return done();
          if (credentials.kind === 'none') {
            challenge(request, reply, basicAuth, false);
            return done(new ProblemError(401, 'unauthenticated', 'Sign-in required', needsSignIn));
          }
          if (credentials.kind === 'basic' && basic) {
            const from = { clientAddress: request.ip, consumer: null, browser: isBrowserRequest(request) };
            basic.authenticate(credentials.userName, credentials.password, from).then(
              (session) => done(admission(request, reply, endpoint, session, basicAuth, sessions)),
              (error: unknown) => {
                if (error instanceof ProblemError && error.status === 401) challenge(request, reply, basicAuth, false);
                done(error as Error);
              },
            );
            return;
          }
          const { token } = credentials as { token: string };
          const activity = activityOf(request);
          const remembered = sessions.authenticateFromMemory(token, activity);
          if (remembered !== undefined)
            return done(admission(request, reply, endpoint, remembered, basicAuth, sessions));
          sessions
            .authenticate(token, activity)
            .then((session) => done(admission(request, reply, endpoint, session, basicAuth, sessions)), done);
        },
  );
}

/** Traffic the person did not cause says so; it is served without extending the idle deadline. */
export function activityOf(request: FastifyRequest): RequestActivity {
  return request.headers[BACKGROUND_REQUEST_HEADER.toLowerCase()] === '1' ? 'background' : 'person';
}

/** A session answers many requests between two moves of its deadlines: their headers are written once for it. */
const deadlineHeadersOf = new WeakMap<AuthenticatedSession, Record<string, string>>();

function deadlineHeaders(session: AuthenticatedSession, idleSeconds: number): Record<string, string> {
  let headers = deadlineHeadersOf.get(session);
  if (!headers) {
    // ISO 8601 with its zone, which every HTTP client's date parser reads without guessing.
    headers = {
      [SESSION_IDLE_EXPIRES_HEADER]: session.idleExpires.toISOString(),
      [SESSION_ABSOLUTE_EXPIRES_HEADER]: session.absoluteExpires.toISOString(),
      [SESSION_IDLE_TIMEOUT_HEADER]: String(idleSeconds),
    };
    deadlineHeadersOf.set(session, headers);
  }
  return headers;
}

/** Attaches the session to the request, or gives the problem that refuses it. */
function admission(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: Endpoint,
  session: AuthenticatedSession | null,
  basicAuth: boolean,
  sessions: SessionService,
): ProblemError | undefined {
  if (!session) {
    challenge(request, reply, basicAuth, true);
    return new ProblemError(
      401,
      'unauthenticated',
      'Session ended',
      'The session token is unknown, expired or revoked. Sign in again.',
    );
  }
  // A token an API account signed in with elsewhere, pasted into a browser, reaches no page either.
  if (session.principal.kind === 'Api' && isBrowserRequest(request))
    return apiAccountInBrowser(session.principal.userName);
  request.session = session;
  // The deadlines as of this request, so a client keeps them current without asking (docs/operations.md "Sessions").
  reply.headers(deadlineHeaders(session, sessions.idleSeconds));
  const { access } = endpoint;
  if (access.kind === 'permission' && permissionAccess(session.principal.grants, access) === 'refused') {
    return new ProblemError(
      403,
      'forbidden',
      'Permission required',
      `This needs '${access.permission}' permission on '${access.entity}', which ${session.principal.userName} does not have.`,
      { extensions: { entity: access.entity, permission: access.permission } },
    );
  }
  return sessions.secondFactorRefusal(session, endpoint);
}
