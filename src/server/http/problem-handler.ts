import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, type Problem, type ProblemKind, problemType } from '../../shared/contract/index.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { RequestValidationError } from './validation.ts';

export function sendProblem(
  reply: FastifyReply,
  status: number,
  kind: ProblemKind,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): FastifyReply {
  const problem: Problem & Record<string, unknown> = {
    type: problemType(kind),
    title,
    status,
    detail,
    ...extensions,
    // What the published SDK reads, beside the RFC 9457 members (SPEC §3 "Errors and limits").
    Message: detail,
    ErrorCode: kind,
  };
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

/** Fastify's own client errors, by code: their messages are safe to show, their kinds are ours. */
const FASTIFY_CLIENT_ERRORS: Record<string, { kind: ProblemKind; title: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { kind: 'unsupported-media-type', title: 'Unsupported content type' },
  FST_ERR_CTP_BODY_TOO_LARGE: { kind: 'payload-too-large', title: 'Request body too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { kind: 'malformed-request', title: 'Empty JSON body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { kind: 'malformed-request', title: 'Malformed JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { kind: 'malformed-request', title: 'Invalid Content-Length' },
};

/** Each connection's latest request, and how many bytes the connection had sent when that request arrived. */
const latestRequests = new WeakMap<Socket, { request: IncomingMessage; sentBefore: number }>();

/**
 * Whether the request still arriving on a connection has been answered already: a refusal (401, 421...) goes out
 * before the body is read, and the body can still fail to parse or time out afterwards. A second answer then would
 * be one the client never asked for.
 */
function answeredWhileArriving(socket: Socket): boolean {
  const latest = latestRequests.get(socket);
  return latest !== undefined && !latest.request.complete && socket.bytesWritten > latest.sentBefore;
}

/**
 * The one place errors become responses: RFC 9457 problem details for everything,
 * and never an internal message, stack or SQL text for a 5xx.
 */
export function registerProblemHandler(app: FastifyInstance): void {
  // For clientErrorHandler below, which learns only of the connection.
  app.addHook('onRequest', (request, _reply, done) => {
    const { raw } = request;
    if (raw.socket) latestRequests.set(raw.socket, { request: raw, sentBefore: raw.socket.bytesWritten });
    done();
  });
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ProblemError) {
      reply.headers(error.headers);
      return sendProblem(reply, error.status, error.kind, error.title, error.message, error.extensions);
    }
    if (error instanceof RequestValidationError) {
      return sendProblem(reply, 400, 'validation', 'Invalid request', error.message, { errors: error.errors });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const known = 'code' in error ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      if (known) return sendProblem(reply, status, known.kind, known.title, error.message);
      if (status === 429) return sendProblem(reply, status, 'too-many-requests', 'Too many requests', error.message);
      return sendProblem(reply, status, 'malformed-request', 'Bad request', error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(
      reply,
      500,
      'internal',
      'Internal error',
      `Something went wrong on the server. Reference: ${request.id}.`,
    );
  });
}

/**
 * Errors the router meets before any route or hook runs: a URL whose percent-encoding does not decode,
 * a path parameter over the length limit. Fastify would answer these with its own JSON shape.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendProblem(reply, 414, 'malformed-request', 'URI too long', 'A path parameter of this URL is too long.');
  }
  return sendProblem(
    reply,
    400,
    'malformed-request',
    'Malformed URL',
    'The request URL is not valid: its percent-encoding does not decode.',
  );
}

/** The problem answering a request that never reached Fastify, by Node's error code (ERR_HTTP_REQUEST_TIMEOUT: 408). */
export function clientErrorProblem(code: string | undefined): { status: number; body: string } {
  const [status, title, detail] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers too large', 'The request headers are larger than the service accepts.']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout', 'The request did not arrive in time.']
        : [400, 'Bad request', 'The request is not valid HTTP/1.1.'];
  const problem: Problem = {
    type: problemType('malformed-request'),
    title,
    status,
    detail,
    Message: detail,
    ErrorCode: 'malformed-request',
  };
  return { status, body: JSON.stringify(problem) };
}

/**
 * Requests Node's HTTP parser refuses (not HTTP, bad header syntax, headers too large, timeouts) never
 * reach Fastify; the socket gets a problem too, unless that request was answered already, and is closed, as Node and
 * Fastify do by default.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorProblem(error.code);
  if (socket.writable && !answeredWhileArriving(socket)) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
