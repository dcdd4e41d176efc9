import type http from 'node:http';
import { type FastifyHttpOptions, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from '../config.ts';
import { stripVersionSegment } from '../http/api-path.ts';
import { loadTlsMaterial, tlsServerFactory } from '../http/listener/tls.ts';
import { clientErrorHandler, frameworkErrorHandler } from '../http/problem-handler.ts';

/** SPEC §3 "Errors and limits": bodies over 64 KiB are refused. */
const BODY_LIMIT = 64 * 1024;

/** Node's own time-out for a request's headers. */
const HEADERS_TIMEOUT_MS = 60_000;

/** The longest wait between two checks for requests past their time-out. */
const CONNECTIONS_CHECK_MS = 5_000;

/** Fastify's keep-alive time-out, which it sets only on servers it makes itself. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** Fastify's types take no hop count, its proxy-addr does: the same rule as a function, trusting the nearest hops. */
function trustProxyOption(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export function serverOptions(config: Config, logger: FastifyServerOptions['logger'] = { level: config.logLevel }) {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const http1 = {
    // Node's default for headers, unless the whole request has less: while the headers' time-out is the longer
    // one, Node 20 does not enforce the request's (seen with a trickled body).
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    // Node looks for late requests this often (30 s by default, which would double a short time-out).
    connectionsCheckingInterval: Math.min(CONNECTIONS_CHECK_MS, requestTimeout / 4),
  };
  return {
    logger,
    bodyLimit: BODY_LIMIT,
    // Node times out headers that never end, but not a body sent a byte at a time: each such request would hold a
    // connection (and its parser's buffers) for as long as the client likes. Past this the client gets a 408
    // (clientErrorHandler) and the connection is closed. Answers, event streams included, are not limited.
    requestTimeout,
    http: http1,
    // With its own certificate: HTTPS, HTTP/2 and HTTP/1.1 (http/tls.ts), with the same limits on HTTP/1.1 requests.
    ...(config.tls
      ? {
          serverFactory: tlsServerFactory(loadTlsMaterial(config.tls), {
            ...http1,
            requestTimeout,
            keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
          }),
        }
      : {}),
    // The real server matches routes case-insensitively; params keep their casing. A person's user name (256
    // characters) percent-encoded is the longest parameter: up to three characters for each.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 800 },
    // Behind a reverse proxy every client would otherwise share the proxy's address, and with it one sign-in throttle.
    trustProxy: trustProxyOption(config.trustProxy),
    // `/Consumer/v3.2/...` (the published SDK's connector): the segment selects the version, routes never see it.
    rewriteUrl: stripVersionSegment,
    // Errors met before any route runs are problems too (SPEC §3 "Errors and limits").
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // A request that reaches the server while it shuts down is served (with Connection: close), not refused
    // with Fastify's 503: the client had sent it on an open connection before the signal (SPEC §3 "Running it").
    return503OnClosing: false,
    // One line per request instead (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
  } satisfies FastifyHttpOptions<http.Server>;
}
