import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import { endpoints } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { ProblemError } from '../../lib/problem-error.ts';

export interface MetricsOptions {
  /** Serve /api/metrics on the public port (METRICS=on). */
  public: boolean;
  /** The public port's metrics need `Authorization: Bearer <token>`; null refuses every scraper there. */
  token: string | null;
  /** Serve the metrics on a port of their own (METRICS_PORT), on this host. */
  port: number | null;
  host: string;
  /** Where every metric is registered: the service's one registry, which other parts (Web Push) count into too. */
  registry: Registry;
}

/** Errors that come from the database: SQLite's, PostgreSQL's, or a connection to it that failed. */
function isDatabaseError(error: Error & { code?: unknown; severity?: unknown }): boolean {
  if (error instanceof ProblemError) return error.kind === 'service-unavailable';
  if (error.name === 'SqliteError' || error.name === 'DatabaseError') return true;
  return typeof error.severity === 'string' || error.code === 'ECONNREFUSED' || error.code === '57P01';
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Whether an Authorization header carries the token. Both sides are hashed first, so the comparison takes as long
 * whatever was sent: its time says nothing about how much of the token a guess got right, nor about its length.
 */
function bearerCheck(token: string | null): (authorization: string | undefined) => boolean {
  if (token === null) return () => false;
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const sent = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    return sent !== undefined && timingSafeEqual(createHash('sha256').update(sent).digest(), expected);
  };
}

/**
 * Prometheus metrics (SPEC §3 "Running it"): requests by route and status with their duration, pending
 * authorization requests, sign-ins by outcome, database errors. Registered only when exposed somewhere.
 */
export function registerMetrics(app: FastifyInstance, db: Kysely<Database>, options: MetricsOptions): void {
  const { registry } = options;
  collectDefaultMetrics({ register: registry, prefix: 'tachyon_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'tachyon_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'tachyon_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'tachyon_sign_ins_total',
    help: 'Sign-ins (POST /Consumer/Authentication) by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'tachyon_database_errors_total',
    help: 'Requests that failed on a database error (readiness checks included)',
    registers: [registry],
  });
  new Gauge({
    name: 'tachyon_pending_authorization_requests',
    help: 'Authorization requests waiting for a decision',
    registers: [registry],
    async collect() {
      const row = await db
        .selectFrom('authorization_requests')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('status', '=', 'Pending')
        .executeTakeFirstOrThrow();
      this.set(Number(row.count));
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw URL: ids and unknown paths would make a label per request.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    if (request.routeOptions.config?.endpoint === endpoints.login) {
      const status = reply.statusCode;
      signIns.inc({
        outcome: status === 200 ? 'success' : status === 429 ? 'throttled' : status === 401 ? 'failure' : 'invalid',
      });
    }
    done();
  });
  app.addHook('onError', (_request, _reply, error, done) => {
    if (isDatabaseError(error)) databaseErrors.inc();
    done();
  });

  const scrape = async () => ({ body: await registry.metrics(), type: registry.contentType });
  if (options.public) {
    const admits = bearerCheck(options.token);
    app.get('/api/metrics', async (request, reply) => {
      if (!admits(request.headers.authorization)) {
        throw new ProblemError(
          401,
          'unauthenticated',
          'Metrics token required',
          'The metrics on this port need Authorization: Bearer <METRICS_TOKEN>.',
          { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
        );
      }
      const { body, type } = await scrape();
      return reply.header('Cache-Control', 'no-store').type(type).send(body);
    });
  }
  if (options.port !== null) {
    const server = http.createServer((request, response) => {
      const url = request.url?.split('?')[0]?.toLowerCase();
      if (request.method !== 'GET' || (url !== '/metrics' && url !== '/api/metrics')) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
        return;
      }
      scrape().then(
        ({ body, type }) => response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics scrape failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n');
        },
      );
    });
    const port = options.port;
    app.addHook(
      'onReady',
      () =>
        new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, options.host, () => resolve());
        }),
    );
    app.addHook('onClose', () => new Promise<void>((resolve) => server.close(() => resolve())));
  }
}
