import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { endpoints, type HealthStatus } from '../../../shared/contract/index.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { isDraining, startDraining } from '../../http/listener/draining.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';

const LIVE: HealthStatus = { Status: 'live' };
const READY: HealthStatus = { Status: 'ready' };

/** SPEC §3 "Running it": cheap checks for a load balancer or an orchestrator, no sign-in. */
export function healthRoutes(app: FastifyInstance, { db }: Services): void {
  registerEndpoint(app, endpoints.healthLive, () => LIVE);
  // However the close began: from then on, readiness says not to send more.
  app.addHook('preClose', async () => startDraining(app));
  registerEndpoint(app, endpoints.healthReady, async ({ request }) => {
    if (isDraining(app)) {
      throw new ProblemError(503, 'service-unavailable', 'Shutting down', 'The service is shutting down.', {
        headers: { 'Retry-After': '5' },
      });
    }
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      request.log.warn({ err: error }, 'readiness: the database does not answer');
      throw new ProblemError(503, 'service-unavailable', 'Not ready', 'The database does not answer.', {
        headers: { 'Retry-After': '5' },
      });
    }
    return READY;
  });
}
