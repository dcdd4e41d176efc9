import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { BasicCredentials } from '../domain/authentication/basic-credentials.ts';
import { authenticateDevice } from '../domain/devices/devices.ts';
import { registerAccess } from '../http/access.ts';
import { registerAllowedHosts, servedHostNames } from '../http/guards/allowed-hosts.ts';
import { registerCrossSiteWriteRefusal } from '../http/guards/cross-site-writes.ts';
import { registerHttpsRequired } from '../http/guards/https-required.ts';
import { registerSecurityHeaders } from '../http/guards/security-headers.ts';
import { registerGracefulClose } from '../http/listener/graceful-close.ts';
import { logPlainHttpOnce } from '../http/listener/plain-http-on-tls.ts';
import { registerMetrics } from '../http/observability/metrics.ts';
import { registerRequestLog } from '../http/observability/request-log.ts';
import { registerProblemHandler } from '../http/problem-handler.ts';
import { contractValidatorCompiler } from '../http/validation.ts';
import { registerVersioning } from '../http/versioning.ts';
import { requestFacts } from '../lib/request-facts.ts';
import type { Services } from '../routes/services.ts';
import '../http/fastify-types.ts';

/** What a request carries before any hook reads it, and how its body is read. */
function registerRequestShape(fastify: FastifyInstance, { config }: Services): void {
  fastify.decorateRequest('apiVersion', config.defaultApiVersion);
  fastify.decorateRequest('session', null);
  fastify.decorateRequest('device', null);
  fastify.setValidatorCompiler(contractValidatorCompiler);
  // All payloads are JSON (seed §4): Fastify's built-in text/plain parser would let a plain-text body
  // reach validation as a string (400); any other content type is 415 unsupported-media-type.
  fastify.removeContentTypeParser('text/plain');
  // Some clients sign out with `DELETE` plus `Content-Type: application/json` and no body: a DELETE carries
  // no payload here, so an empty one is not parsed (it would be a 400 "empty JSON body").
  fastify.addHook('onRequest', (request, _reply, done) => {
    const { headers } = request;
    if (
      request.method === 'DELETE' &&
      headers['transfer-encoding'] === undefined &&
      Number(headers['content-length'] ?? 0) === 0
    )
      delete headers['content-type'];
    done();
  });
}

/** Every hook a request passes before its route, in the order they must run. */
export async function registerPipeline(
  fastify: FastifyInstance,
  services: Services,
  metricsRegistry: Registry | null,
): Promise<void> {
  const { config, db, sessions, clock, throttle } = services;
  registerRequestShape(fastify, services);
  registerProblemHandler(fastify);
  registerGracefulClose(fastify);
  registerRequestLog(fastify);

  registerSecurityHeaders(fastify, config.connectSources, config.hstsPreload);
  if (config.tls) logPlainHttpOnce(fastify.server, fastify.log);
  await fastify.register(fastifyRateLimit, { global: false });

  if (metricsRegistry) {
    registerMetrics(fastify, db, {
      public: config.metrics,
      token: config.metricsToken,
      port: config.metricsPort,
      host: config.host,
      registry: metricsRegistry,
    });
  }
  // X-Tachyon-Consumer names the calling application (SPEC §3): a structured field of every line the request
  // itself logs (a warning, an error); the one-line request log (http/request-log.ts) names it too.
  fastify.addHook('onRequest', (request, reply, done) => {
    const { consumer } = requestFacts(request);
    if (consumer !== null) {
      request.log = request.log.child({ consumer });
      reply.log = request.log;
    }
    done();
  });
  registerVersioning(fastify, config.defaultApiVersion);
  // After the hooks that put the security and version headers on every answer, before anything acts on a request.
  registerAllowedHosts(fastify, servedHostNames(config));
  registerCrossSiteWriteRefusal(fastify);
  // Before credentials are checked: a password that crossed the network in clear is refused, not verified.
  if (config.trustProxy !== false) registerHttpsRequired(fastify);
  registerAccess(
    fastify,
    sessions,
    config.basicAuth ? new BasicCredentials(db, sessions, throttle) : null,
    (credential) => authenticateDevice(db, credential, clock),
  );
}
