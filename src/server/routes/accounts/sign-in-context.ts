import type { FastifyRequest } from 'fastify';
import type { SignInContext } from '../../domain/identity/account-history.ts';
import { isBrowserRequest } from '../../http/browser-request.ts';
import { requestFacts } from '../../lib/request-facts.ts';

/** Who is signing in from where, as the account history and the audit stream record it. */
export function signInContext(request: FastifyRequest): SignInContext {
  return { ...requestFacts(request), browser: isBrowserRequest(request) };
}
