import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Endpoint } from '../../shared/contract/index.ts';

/**
 * Adds an onRequest hook to each catalogue route, made for that route's endpoint when the route is added.
 * A global hook would have to find the endpoint on every request (Fastify builds `request.routeOptions`
 * anew at each read); a route's own hook already knows it. Guards run in the order they are added.
 */
export function guardEndpoints(
  app: FastifyInstance,
  makeGuard: (endpoint: Endpoint) => onRequestHookHandler | null,
): void {
  app.addHook('onRoute', (route) => {
    const endpoint = route.config?.endpoint;
    if (!endpoint) return;
    const guard = makeGuard(endpoint);
    if (!guard) return;
    const existing = route.onRequest ?? [];
    route.onRequest = [...(Array.isArray(existing) ? existing : [existing]), guard];
  });
}
