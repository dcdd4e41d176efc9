import type { FastifyRequest } from 'fastify';
import type { SignInContext } from '../domain/sign-in.ts';

/** Who is signing in from where, as the account history records it. */
export function signInContext(request: FastifyRequest): SignInContext {
  const consumer = request.headers['x-tachyon-consumer'];
  return { clientAddress: request.ip, consumer: typeof consumer === 'string' && consumer !== '' ? consumer : null };
}
