import type http from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { Registry } from 'prom-client';
import { DEVICE_APP_PATH } from '../shared/contract/index.ts';
import { type AuditSink, openAuditLog } from './audit/audit-log.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase, SQLITE_FILE_NAME } from './db/database.ts';
import { PostgresChangeFeed } from './db/postgres-change-feed.ts';
import { AccountService } from './domain/accounts/accounts.ts';
import { bootstrapAdmin } from './domain/accounts/bootstrap-admin.ts';
import { Directory } from './domain/accounts/directory.ts';
import { userKeyOf } from './domain/accounts/principals.ts';
import { ChangeFeed } from './domain/core/change-feed.ts';
import { type Clock, systemClock } from './domain/core/clock.ts';
import {
  DEMO_USER_KEYS,
  retireDemoCreatedAccounts,
  retireDemoPrincipals,
  seedDemoDataIfEmpty,
  seedDemoPrincipals,
} from './domain/demo/demo-data.ts';
import { purgeDeviceEvents } from './domain/devices/device-events.ts';
import { purgeExpiredCodes } from './domain/devices/device-inbox.ts';
import { authenticateDevice } from './domain/devices/devices.ts';
import { BasicCredentials } from './domain/sign-in/basic-credentials.ts';
import { KnownClients } from './domain/sign-in/known-clients.ts';
import { LoginThrottle } from './domain/sign-in/login-throttle.ts';
import { openSingleSignOn } from './domain/sign-in/oidc/oidc-sign-in.ts';
import { SessionService } from './domain/sign-in/sessions.ts';
import { removePushSubscription, type TokenPushSender } from './domain/two-factor/token-delivery.ts';
import { registerAccess } from './http/access.ts';
import { registerAllowedHosts, servedHostNames } from './http/allowed-hosts.ts';
import { stripVersionSegment } from './http/api-path.ts';
import { registerCrossSiteWriteRefusal } from './http/cross-site-writes.ts';
import { registerGracefulClose } from './http/graceful-close.ts';
import { registerHttpsRequired } from './http/https-required.ts';
import { registerMetrics } from './http/metrics.ts';
import { clientErrorHandler, frameworkErrorHandler, registerProblemHandler } from './http/problem-handler.ts';
import { registerRequestLog } from './http/request-log.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { loadTlsMaterial, tlsServerFactory } from './http/tls.ts';
import { contractValidatorCompiler } from './http/validation.ts';
import { registerVersioning } from './http/versioning.ts';
import { type HostLookup, type PushEndpointPolicy, pushEndpointRefusal } from './push/push-endpoint-policy.ts';
import { loadVapidKeys } from './push/vapid-keys.ts';
import { WebPushSender } from './push/web-push-sender.ts';
import { accountRoutes } from './routes/accounts.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { authenticationRoutes } from './routes/authentication.ts';
import { authorizationRequestRoutes } from './routes/authorization-requests.ts';
import { backupRoutes } from './routes/backup.ts';
import { changeEventRoutes } from './routes/change-events.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { demoRoutes } from './routes/demo.ts';
import { deviceRoutes } from './routes/devices.ts';
import { healthRoutes } from './routes/health.ts';
import { historyRoutes } from './routes/history.ts';
import { instructionRoutes } from './routes/instructions.ts';
import { pushUserRoutes } from './routes/push-users.ts';
import type { Services } from './routes/services.ts';
import { singleSignOnRoutes } from './routes/single-sign-on.ts';
import { versionRoutes } from './routes/version.ts';
import './http/fastify-types.ts';

/** What a Web Push sender is made from, once the app has its database, its keys and its log. */
export interface PushSenderContext {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** The endpoint policy (a reason to refuse, or null): asked again before every push, since DNS answers change. */
  checkEndpoint: (endpoint: string) => Promise<string | null>;
  /** Forgets a subscription its push service called gone (404/410), if the device still has that endpoint. */
  onGone: (deviceId: number, endpoint: string) => Promise<void>;
  log: FastifyBaseLogger;
  clock: Clock;
}

export interface AppOptions {
  config: Config;
  /** An open database; when absent the app opens the one the config names and closes it on close. */
  database?: DatabaseHandle;
  clock?: Clock;
  /**
   * Sends new codes by Web Push: a sender, or a function making one from what only the app knows (the VAPID keys
   * kept in the database). Absent: the Web Push sender (push/web-push-sender.ts). Null, or Web Push off: codes reach
   * the inbox and the devices' live streams only.
   */
  pushSender?: TokenPushSender | ((context: PushSenderContext) => TokenPushSender) | null;
  /** Resolves push service host names for the endpoint policy (tests stand in for DNS); the system's otherwise. */
  hostLookup?: HostLookup;
  /** Where audit lines go instead of AUDIT_LOG's (tests); null: none. */
  auditSink?: AuditSink | null;
  /** Standard output as the service log writes it, which AUDIT_LOG=stdout shares so lines never interleave. */
  auditStdout?: AuditSink;
}

/** Ended sessions and lapsed known clients are deleted this often (and at start). */
const PURGE_INTERVAL_MS = 15 * 60_000;

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
    // The real server matches routes case-insensitively; params keep their casing.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
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

/** The production sender: Web Push to the push services, its outcomes counted with the service's metrics. */
function webPushSender(config: Config, registry: Registry | null) {
  return (context: PushSenderContext): TokenPushSender => {
    return new WebPushSender({
      ...context,
      log: context.log.child({ component: 'web-push' }),
      deviceAppUrl: new URL(DEVICE_APP_PATH, config.publicUrl).href,
      ...(registry ? { registry } : {}),
    });
  };
}

/** The whole service as a plugin: tests register it on an instance they never listen with. */
export async function app(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    openDatabase(
      config.databaseUrl
        ? { databaseUrl: config.databaseUrl }
        : { sqliteFile: `${config.dataDir}/${SQLITE_FILE_NAME}` },
    );
  if (!options.database) fastify.addHook('onClose', () => database.close());
  await migrateToLatest(database);
  const { db } = database;

  if (config.demo) {
    await seedDemoPrincipals(db, config.passwordHashCost);
    await seedDemoDataIfEmpty(db, clock);
  } else {
    await retireDemoPrincipals(db, clock);
    const adminKey = config.adminUserName ? userKeyOf(config.adminUserName) : null;
    const retired = await retireDemoCreatedAccounts(db, clock, adminKey);
    if (retired.length > 0) {
      fastify.log.warn(
        { accounts: retired },
        `Disabled ${retired.length} account(s) created while demo mode was on, and ended their sessions: ` +
          `${retired.join(', ')}. Anyone could create them with the published demo passwords. ` +
          'An account administrator may enable one again after checking it.',
      );
    }
  }
  if (config.adminUserName && config.adminPassword) {
    const admin = { userName: config.adminUserName, password: config.adminPassword };
    const state = await bootstrapAdmin(
      db,
      clock,
      { ...admin, forceEnable: config.adminForceEnable },
      config.passwordHashCost,
    );
    if (state === 'disabled') {
      fastify.log.warn(
        { account: admin.userName },
        `ADMIN_USERNAME ${admin.userName} is disabled (an account administrator disabled it) and cannot sign in. ` +
          'It stays disabled; to enable it again, start once with ADMIN_FORCE_ENABLE=on, or ask an account administrator.',
      );
    } else if (state === 're-enabled') {
      fastify.log.warn(
        { account: admin.userName },
        `ADMIN_USERNAME ${admin.userName} was disabled and is enabled again because ADMIN_FORCE_ENABLE is on. ` +
          'Turn ADMIN_FORCE_ENABLE off, or every start will undo a "Disable".',
      );
    }
  }
  const directory = config.directory ? new Directory(config.directory, fastify.log) : null;
  const { audit, close: closeAudit } = openAuditLog(config.auditLog, clock, {
    ...(options.auditSink !== undefined ? { sink: options.auditSink } : {}),
    ...(options.auditStdout ? { stdout: options.auditStdout } : {}),
  });
  fastify.addHook('onClose', closeAudit);

  const knownClients = new KnownClients(db, clock);
  // Several processes on one PostgreSQL share its counts; otherwise each would grant the whole budget again.
  const throttle = new LoginThrottle(
    {
      failuresPerUser: config.loginFailuresPerUser,
      failuresPerAddress: config.loginFailuresPerAddress,
      windowSeconds: config.loginFailureWindowSeconds,
      slowAfterFailures: config.loginSlowAfterFailures,
      slowSeconds: config.loginSlowSeconds,
    },
    database.pool ? { kind: 'postgres', pool: database.pool } : { kind: 'memory' },
    knownClients,
  );
  const sessions = new SessionService(
    db,
    clock,
    {
      idleMinutes: config.sessionIdleMinutes,
      absoluteHours: config.sessionAbsoluteHours,
      passwordHashCost: config.passwordHashCost,
      refusedUserKeys: config.demo ? new Set() : DEMO_USER_KEYS,
      directory,
      log: fastify.log,
      audit,
    },
    throttle,
  );
  const oidc = await openSingleSignOn({ db, clock, config, sessions, audit });
  // Ended sessions, addresses no longer known, old device events and, outside demo mode, codes past their time (kept
  // in plain text only while a device may need them).
  const purgeAll = async () => {
    await sessions.purgeEnded();
    await knownClients.prune();
    await oidc?.purge();
    await purgeDeviceEvents(db, clock());
    if (!config.demo) await purgeExpiredCodes(db, clock());
  };
  await purgeAll();
  const purge = setInterval(() => {
    purgeAll().catch((error: unknown) => fastify.log.warn({ err: error }, 'purging ended records failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  fastify.addHook('onClose', () => clearInterval(purge));
  const changes =
    database.dialect === 'postgres' && config.databaseUrl
      ? await PostgresChangeFeed.connect(config.databaseUrl, db, (error) =>
          fastify.log.warn({ err: error }, 'change feed: PostgreSQL LISTEN/NOTIFY failed'),
        )
      : new ChangeFeed();
  fastify.addHook('onClose', () => changes.close());
  // First of the feed's access listeners: whoever hears of a change after it (a live stream) reads the account anew.
  changes.onAccessChange((principalId) => sessions.forgetPrincipal(principalId));
  const accounts = new AccountService(db, clock, {
    hashCost: config.passwordHashCost,
    idleMinutes: config.sessionIdleMinutes,
    directoryDomain: config.directory?.domain ?? null,
    demo: config.demo,
    forget: (principalId) => changes.announceAccessChange(principalId),
    throttle,
  });
  if (config.directory) {
    const inside = await accounts.localInsideDirectoryDomain();
    if (inside.length > 0) {
      fastify.log.warn(
        { accounts: inside },
        `Local accounts inside LDAP_DOMAIN (${config.directory.domain}): ${inside.join(', ')}. Each keeps its own ` +
          'password and permissions, and the directory person of the same name cannot sign in while it exists. ' +
          'The Accounts page marks them.',
      );
    }
  }
  const pushPolicy: PushEndpointPolicy = {
    allowOrigins: config.pushAllowOrigins,
    ...(options.hostLookup ? { lookup: options.hostLookup } : {}),
  };
  const vapid = await loadVapidKeys(db, config, clock);
  // One registry for every metric, made only when the metrics are served somewhere.
  const metricsRegistry = config.metrics || config.metricsPort !== null ? new Registry() : null;
  const makeSender = options.pushSender === undefined ? webPushSender(config, metricsRegistry) : options.pushSender;
  let pushSender: TokenPushSender | null = null;
  if (vapid.subject !== null && makeSender) {
    const { subject } = vapid;
    pushSender =
      typeof makeSender === 'function'
        ? makeSender({
            vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject },
            checkEndpoint: (endpoint) => pushEndpointRefusal(endpoint, pushPolicy),
            onGone: (deviceId, endpoint) => removePushSubscription(db, deviceId, endpoint),
            log: fastify.log,
            clock,
          })
        : makeSender;
  }
  const sender = pushSender;
  if (sender?.close) fastify.addHook('onClose', async () => sender.close?.());
  // The start-up log says when codes will not leave by Web Push, and why.
  if (vapid.offReason) fastify.log.warn(vapid.offReason);
  else if (!pushSender) fastify.log.warn('Web Push is off: no push sender was given to this service process.');
  else fastify.log.info({ subject: vapid.subject }, 'Web Push is on');
  const services: Services = {
    config,
    db,
    clock,
    sessions,
    changes,
    accounts,
    pushSender,
    delivery: { keepPlainTokens: config.demo, pushSender, changes },
    vapid,
    pushPolicy,
    audit,
  };

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
  registerProblemHandler(fastify);
  registerGracefulClose(fastify);
  registerRequestLog(fastify);

  registerSecurityHeaders(fastify, config.connectSources);
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
    const consumer = request.headers['x-tachyon-consumer'];
    if (typeof consumer === 'string' && consumer !== '') {
      request.log = request.log.child({ consumer: consumer.slice(0, 100) });
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
  registerAccess(fastify, sessions, config.basicAuth ? new BasicCredentials(db, sessions) : null, (credential) =>
    authenticateDevice(db, credential),
  );

  versionRoutes(fastify, services);
  authenticationRoutes(fastify, services);
  singleSignOnRoutes(fastify, services, oidc);
  authorizationRequestRoutes(fastify, services);
  pushUserRoutes(fastify, services);
  historyRoutes(fastify, services);
  changeEventRoutes(fastify, services);
  healthRoutes(fastify, services);
  apiDocsRoutes(fastify, services);
  accountRoutes(fastify, services);
  deviceRoutes(fastify, services);
  instructionRoutes(fastify, services);
  backupRoutes(fastify, { database, config, clock, audit });
  if (config.demo) demoRoutes(fastify, services);
  await dashboardRoutes(fastify, config.webRoot);
}
// Registered at the root, not encapsulated: its error and not-found handlers cover every route.
Object.assign(app, { [Symbol.for('skip-override')]: true });

export async function buildApp(options: AppOptions, logger?: FastifyServerOptions['logger']): Promise<FastifyInstance> {
  const fastify = Fastify(serverOptions(options.config, logger));
  await fastify.register(app, options);
  await fastify.ready();
  return fastify;
}
