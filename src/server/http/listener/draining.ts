import type { FastifyInstance } from 'fastify';

/** Services on their way out: readiness answers 503 from the moment the stop is asked for. */
const draining = new WeakSet<FastifyInstance>();

/**
 * Says the service is going away (SIGTERM, or its close starting): a load balancer reading readiness stops sending
 * it new requests while the ones in flight finish.
 */
export function startDraining(app: FastifyInstance): void {
  draining.add(app);
}

export function isDraining(app: FastifyInstance): boolean {
  return draining.has(app);
}
