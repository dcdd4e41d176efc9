import type { FastifyRequest } from 'fastify';
import type { SignInContext } from '../domain/sign-in/sign-in.ts';
import { isBrowserRequest } from '../http/browser-request.ts';

/** Who is signing in from where, as the account history and the audit stream record it. */
export function signInContext(request: FastifyRequest): SignInContext {
  const consumer = request.headers['x-tachyon-consumer'];
  const userAgent = request.headers['user-agent'];
  return {
    clientAddress: request.ip,
    consumer: typeof consumer === 'string' && consumer !== '' ? consumer : null,
    userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent : null,
    browser: isBrowserRequest(request),
  };
}
