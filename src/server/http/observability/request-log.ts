import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { endDestination } from '../../lib/log-destination.ts';
import { requestFacts } from '../../lib/request-facts.ts';

/** How long an exiting service waits for its last log lines to be written. */
const CLOSE_TIMEOUT_MS = 3_000;

/**
 * The log the service writes when it runs for real: pino's asynchronous destination on stdout. Fastify's default
 * writes two lines per request synchronously, and a blocking write per line cost half the throughput of a cheap
 * read; here lines are buffered and written while the event loop serves the next requests. A crash (not a signal)
 * can lose the last quarter second of lines. Before the process
 * exits, `close()` ends the destination: the write already under way completes and whatever is buffered follows
 * (a synchronous flush at that moment would race the write under way, and exiting would drop it).
 */
export function createServiceLog(level: string): {
  logger: NonNullable<FastifyServerOptions['logger']>;
  /** Writes a whole line of another stream (the audit stream on stdout) in order with the log's own lines. */
  write(line: string): void;
  close(): Promise<void>;
} {
  // Lines gather into writes of 4 KiB or a quarter second, whichever comes first: under load one write (a trip to
  // libuv's thread pool) per line cost more than building the lines.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });
  return {
    logger: { level, stream: destination },
    write: (line) => destination.write(line),
    // stdout gone (a closed pipe) or stuck: there is nowhere left to write to, so do not hold the exit.
    close: () => endDestination(destination, CLOSE_TIMEOUT_MS),
  };
}

/**
 * One line per request, written when the answer has gone out, with what an operator asks of it: method, route
 * (the pattern, so lines group by endpoint), status, duration, the signed-in user and the calling consumer.
 * Replaces Fastify's "incoming request" / "request completed" pair (`disableRequestLogging` in the server options).
 */
export function registerRequestLog(app: FastifyInstance): void {
  // Fastify's logger type leaves out pino's isLevelEnabled; below info no line is built at all.
  const enabled = ['trace', 'debug', 'info'].includes(app.log.level);
  app.addHook('onResponse', (request, reply, done) => {
    if (enabled) {
      app.log.info(
        {
          reqId: request.id,
          method: request.method,
          route: request.routeOptions.url ?? null,
          url: request.routeOptions.url ? undefined : request.url.slice(0, 200),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          user: request.session?.principal.userName ?? null,
          consumer: requestFacts(request).consumer,
        },
        'request',
      );
    }
    done();
  });
}
