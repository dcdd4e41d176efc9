import type { FastifyRequest } from 'fastify';
import type { AuthenticatedSession } from '../domain/authentication/sessions.ts';

/** The session the access hook established; routes with session access always have one. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw new Error(`route ${request.url} reached without a session`);
  return request.session;
}
