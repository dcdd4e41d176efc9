import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { ActivityStore } from '../audit/activity-store.ts';
import { type AuditLog, openAuditLog } from '../audit/audit-log.ts';
import { startBackupSchedule } from '../backup/backup-schedule.ts';
import { BackupService } from '../backup/backup-service.ts';
import { type Config, ConfigError } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { AccountService } from '../domain/accounts/accounts.ts';
import { pruneActivity } from '../domain/activity/activity.ts';
import { ActivitySearchIndexer } from '../domain/activity/activity-search-index.ts';
import { AlertService } from '../domain/alerts/alerts.ts';
import { Directory } from '../domain/authentication/directory/directory.ts';
import { OidcDiscoveryError } from '../domain/authentication/oidc/identity-provider.ts';
import { openSingleSignOn } from '../domain/authentication/oidc/oidc-sign-in.ts';
import { relyingPartyOf } from '../domain/authentication/passkeys/relying-party.ts';
import { SessionService } from '../domain/authentication/sessions.ts';
import { SignInMethodService } from '../domain/authentication/sign-in-methods.ts';
import { KnownClients } from '../domain/authentication/throttle/known-clients.ts';
import { LoginThrottle } from '../domain/authentication/throttle/login-throttle.ts';
import { ChangeFeed } from '../domain/core/change-feed.ts';
import { PostgresChangeFeed } from '../domain/core/postgres-change-feed.ts';
import { DEMO_USER_KEYS } from '../domain/demo/demo-data.ts';
import { purgeDeviceEvents } from '../domain/devices/device-events.ts';
import { purgeExpiredCodes } from '../domain/devices/device-inbox.ts';
import type { PushEndpointPolicy } from '../domain/devices/push-endpoint-policy.ts';
import type { Clock } from '../lib/clock.ts';
import { loadVapidKeys, VAPID_KEY_FILE_NAME } from '../push/vapid-keys.ts';
import type { Services } from '../routes/services.ts';
import type { AppOptions } from './options.ts';
import { pushSenderOf } from './push-sender.ts';

/** The services the routes get, with what the pipeline and the start-up tasks need of them. */
export interface ServiceGraph {
  services: Services;
  /** One registry for every metric, made only when the metrics are served somewhere. */
  metricsRegistry: Registry | null;
  /**
   * Deletes what has ended (sessions, known clients, device events, old codes, events past ACTIVITY_RETENTION_DAYS);
   * run at start and on a schedule.
   */
  purgeAll: () => Promise<void>;
}

/** Sessions, the sign-in throttle and the known clients it consults. */
function signInServices(
  fastify: FastifyInstance,
  database: DatabaseHandle,
  config: Config,
  clock: Clock,
  audit: AuditLog,
) {
  const { db } = database;
  const directory = config.directory ? new Directory(config.directory, fastify.log) : null;
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
      secondFactor: config.secondFactor,
      stepUpMinutes: config.stepUpMinutes,
    },
    throttle,
  );
  return { knownClients, throttle, sessions };
}

/** This process's change feed, or on PostgreSQL every process's; closed with the app. */
async function openChangeFeed(fastify: FastifyInstance, database: DatabaseHandle, config: Config): Promise<ChangeFeed> {
  const changes =
    database.dialect === 'postgres' && config.databaseUrl
      ? await PostgresChangeFeed.connect(config.databaseUrl, database.db, (error) =>
          fastify.log.warn({ err: error }, 'change feed: PostgreSQL LISTEN/NOTIFY failed'),
        )
      : new ChangeFeed();
  fastify.addHook('onClose', () => changes.close());
  return changes;
}

/**
 * Alerts: they hear the audit stream from now on and send from the outbox once the app is ready (deliveries left
 * by an earlier run included); they stop before the database closes.
 */
function openAlerts(
  fastify: FastifyInstance,
  options: AppOptions,
  database: DatabaseHandle,
  clock: Clock,
  audit: AuditLog,
): AlertService {
  const { config } = options;
  const alerts = new AlertService({
    db: database.db,
    dialect: database.dialect,
    clock,
    audit,
    publicUrl: config.publicUrl,
    webhookPolicy: {
      allowOrigins: config.alertWebhookAllowOrigins,
      ...(options.hostLookup ? { lookup: options.hostLookup } : {}),
    },
    email: config.smtpUrl
      ? { url: config.smtpUrl, from: config.smtpFrom, ...(options.smtpCa ? { ca: options.smtpCa } : {}) }
      : null,
    warn: (error, message) => fastify.log.warn({ err: error }, message),
  });
  fastify.addHook('onReady', async () => alerts.start());
  // No answer waits here for alerts: each is written with the change that caused it (AuditLog.change), or, without
  // one, by the action that recorded its event before it answers.
  fastify.addHook('onClose', () => alerts.stop());
  return alerts;
}

/** Backups: the service the endpoint takes them with, and the schedule when BACKUP_DIR is set (stopped at close). */
function openBackups(
  fastify: FastifyInstance,
  database: DatabaseHandle,
  config: Config,
  clock: Clock,
  audit: AuditLog,
): BackupService {
  const backups = new BackupService(database, clock, audit, config.databaseUrl);
  if (config.backupDir !== null) {
    const schedule = startBackupSchedule(backups, {
      folder: config.backupDir,
      intervalMs: config.backupIntervalMinutes * 60_000,
      keep: config.backupKeep,
      onError: (error) => fastify.log.error({ err: error }, `scheduled backup into ${config.backupDir} failed`),
    });
    fastify.addHook('onClose', async () => schedule.stop());
  }
  return backups;
}

/** Builds every service once, in the order they depend on each other. */
export async function buildServices(
  fastify: FastifyInstance,
  options: AppOptions,
  database: DatabaseHandle,
  clock: Clock,
): Promise<ServiceGraph> {
  const { config } = options;
  const { db } = database;
  // Every audit event is also kept in the database for the Activity page; a failed write is logged, never thrown.
  const activity = new ActivityStore(db, (error) =>
    fastify.log.error({ err: error }, 'activity: an event was not kept'),
  );
  const { audit, close: closeAudit } = openAuditLog(config.auditLog, clock, {
    ...(options.auditSink !== undefined ? { sink: options.auditSink } : {}),
    ...(options.auditStdout ? { stdout: options.auditStdout } : {}),
    activity,
  });
  fastify.addHook('onClose', closeAudit);
  const { knownClients, throttle, sessions } = signInServices(fastify, database, config, clock, audit);
  const oidc = await openSingleSignOn({
    db,
    clock,
    oidc: config.oidc,
    publicUrl: config.publicUrl,
    sessions,
    audit,
  }).catch((error: unknown) => {
    // A provider that cannot be used stops the start, with the message that names OIDC_ISSUER.
    throw error instanceof OidcDiscoveryError ? new ConfigError(error.message) : error;
  });
  // Ended sessions, addresses no longer known, old device events and, outside demo mode, codes past their time (kept
  // in plain text only while a device may need them).
  const purgeAll = async () => {
    await sessions.purgeEnded();
    await knownClients.prune();
    await oidc?.purge();
    await purgeDeviceEvents(db, clock());
    if (!config.demo) await purgeExpiredCodes(db, clock());
    await pruneActivity(db, clock(), config.activityRetentionDays);
  };
  const changes = await openChangeFeed(fastify, database, config);
  // Open Activity pages hear of new events from the change stream (every process's, on PostgreSQL).
  // The text index follows the kept events in batches, once the writes pause (and at the start, for any left over).
  const searchIndex = new ActivitySearchIndexer(db, (error) =>
    fastify.log.error({ err: error }, 'activity: the text index was not brought up to date'),
  );
  activity.announceTo(() => {
    changes.publish({ Type: 'activity' });
    searchIndex.written();
  });
  searchIndex.written();
  fastify.addHook('onClose', async () => {
    activity.close();
    await searchIndex.close();
  });
  // First of the feed's access listeners: whoever hears of a change after it (a live stream) reads the account anew.
  changes.onAccessChange((principalId) => sessions.forgetPrincipal(principalId));
  const accounts = new AccountService(db, clock, {
    hashCost: config.passwordHashCost,
    idleMinutes: config.sessionIdleMinutes,
    directoryDomain: config.directory?.domain ?? null,
    demo: config.demo,
    forget: (principalId) => changes.announceAccessChange(principalId),
    changes,
    throttle,
    secondFactor: config.secondFactor,
  });
  const pushPolicy: PushEndpointPolicy = {
    allowOrigins: config.pushAllowOrigins,
    ...(options.hostLookup ? { lookup: options.hostLookup } : {}),
  };
  // The embedded database's own file: its key pair lives in a file beside it, out of the database and its backups.
  const vapidKeyFile = options.database || config.databaseUrl ? null : path.join(config.dataDir, VAPID_KEY_FILE_NAME);
  const vapid = await loadVapidKeys(db, config, clock, vapidKeyFile);
  const metricsRegistry = config.metrics || config.metricsPort !== null ? new Registry() : null;
  const pushSender = pushSenderOf(fastify, options, { db, clock, vapid, pushPolicy, registry: metricsRegistry });
  const delivery = { keepPlainTokens: config.demo, pushSender, changes };
  const alerts = openAlerts(fastify, options, database, clock, audit);
  const signInMethods = new SignInMethodService({
    db,
    clock,
    rp: relyingPartyOf(config.publicUrl),
    sessions,
    throttle,
    audit,
    policy: {
      secondFactor: config.secondFactor,
      refusedUserKeys: config.demo ? new Set() : DEMO_USER_KEYS,
      passwordHashCost: config.passwordHashCost,
    },
    forget: (principalId) => changes.announceAccessChange(principalId),
    delivery,
  });
  const backups = openBackups(fastify, database, config, clock, audit);
  const services = {
    config,
    db,
    clock,
    sessions,
    throttle,
    changes,
    accounts,
    pushSender,
    delivery,
    vapid,
    pushPolicy,
    audit,
    oidc,
    alerts,
    signInMethods,
    backups,
  };
  return { services, metricsRegistry, purgeAll };
}
