import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod/mini';
import {
  type ApiVersion,
  DEFAULT_API_VERSION,
  DEFAULT_SESSION_IDLE_MINUTES,
  isApiVersion,
  SECOND_FACTOR_POLICIES,
  type SecondFactorPolicy,
  SUPPORTED_VERSIONS,
} from '../shared/contract/index.ts';
import {
  type DirectoryConfig,
  inDirectoryDomain,
  loadDirectoryConfig,
} from './domain/authentication/directory/directory-config.ts';
import { passwordWeakness } from './domain/identity/password-policy.ts';
import { isLoopbackHost } from './http/guards/allowed-hosts.ts';
import type { TlsFiles } from './http/listener/tls.ts';
import { readOpenFileLimit, streamsPerProcessFor } from './lib/open-file-limit.ts';
import { loadOidcConfig, type OidcConfig } from './oidc-config.ts';
import { plainHttpRefusal, tlsFilesOf } from './transport-config.ts';

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded database; ignored when databaseUrl is set. */
  dataDir: string;
  /** A PostgreSQL connection string; null selects the embedded SQLite database. */
  databaseUrl: string | null;
  defaultApiVersion: ApiVersion;
  demo: boolean;
  /** Fastify's trustProxy: off, a hop count, or the proxies' addresses and CIDR ranges. */
  trustProxy: boolean | number | string[];
  /** Host names a loopback-bound service answers beside its own (http/allowed-hosts.ts); lower case, IPv6 bracketed. */
  allowedHosts: string[];
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** scrypt cost (N) for new password hashes; tests lower it, production keeps the default. */
  passwordHashCost: number;
  /** Failed logins allowed per user name from one address, and per client address, in loginFailureWindowSeconds. */
  loginFailuresPerUser: number;
  loginFailuresPerAddress: number;
  loginFailureWindowSeconds: number;
  /** Failed logins for one user name from all addresses in a window, after which its sign-ins are paced. */
  loginSlowAfterFailures: number;
  /** Paced user names get one attempt per this many seconds. */
  loginSlowSeconds: number;
  /** Sign-in attempts per client address per minute, successful or not. */
  loginRatePerMinute: number;
  /** Demo creations (device requests, instructions) per session per minute. */
  demoCreationsPerMinute: number;
  /** Live change streams one account may hold open in this process, over all its sessions. */
  liveStreamsPerAccount: number;
  /**
   * Live change streams this process holds open at most, whoever opened them: unset, half its open-file limit, so
   * that streams never take the sockets health checks and sign-ins need.
   */
  liveStreamsPerProcess: number;
  /** Extra origins the dashboard may call (CSP connect-src), for pointing it at another server. */
  connectSources: string[];
  /** LDAP / Active Directory sign-in; null when LDAP_URL is unset. */
  directory: DirectoryConfig | null;
  /** Single sign-on with an OpenID Connect provider; null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  /** Optional bootstrap principal with Security and Accounts Read+Write, for deployments without demo data. */
  adminUserName: string | null;
  adminPassword: string | null;
  /**
   * Enable the ADMIN_USERNAME account at start even when an administrator disabled it. Off, a disabled break-glass
   * account stays disabled (with a warning at every start): otherwise each deploy would undo the "Disable".
   */
  adminForceEnable: boolean;
  /** Where the built dashboard lives; null serves no dashboard. */
  webRoot: string | null;
  logLevel: string;
  /** HTTP Basic credentials on the API (the published SDK answers a Basic challenge instead of sending a token). */
  basicAuth: boolean;
  /** Time a client has to send a whole request, body included; then 408 and the connection is closed. */
  requestTimeoutSeconds: number;
  /** Prometheus metrics at /api/metrics on the public port. */
  metrics: boolean;
  /** What the scraper sends as `Authorization: Bearer` for the public port's metrics; loadConfig requires it there. */
  metricsToken: string | null;
  /** A separate port serving only the metrics (on HOST); null for none. */
  metricsPort: number | null;
  /** The VAPID key pair (RFC 8292), base64url; both null: generated once and kept in the database. */
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  /** Who runs this service, as push services see it (a mailto: or https: URL); null: Web Push is off outside demo. */
  vapidSubject: string | null;
  /** Push service origins accepted beside the browsers' own (on-premises push services, tests); may be http and loopback. */
  pushAllowOrigins: string[];
  /** SMTP_URL: the mail server email alerts go through (STARTTLS required on smtp://); null: no email alerts. */
  smtpUrl: string | null;
  /** SMTP_FROM: the sender address of email alerts. */
  smtpFrom: string;
  /** ALERT_WEBHOOK_ALLOW_ORIGINS: webhook origins trusted as they are (http and private or loopback addresses). */
  alertWebhookAllowOrigins: string[];
  /**
   * The address people open the service at (PUBLIC_URL), for links made without a request to take it from: the
   * device app's address in a Web Push notification. Defaults to http(s)://HOST:PORT (localhost for loopback).
   */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (the start banner stops asking for it), rather than taken from HOST and PORT. */
  publicUrlSet: boolean;
  /** The service's own certificate and key (TLS_CERT_FILE, TLS_KEY_FILE): HTTPS on PORT. Null: plain HTTP. */
  tls: TlsFiles | null;
  /** HSTS_PRELOAD: Strict-Transport-Security also asks to be on browsers' preload list. */
  hstsPreload: boolean;
  /** INSECURE_HTTP: plain HTTP beyond loopback without TLS or a trusted proxy, on purpose (transport-config.ts). */
  insecureHttp: boolean;
  /** After SIGTERM, how long readiness answers 503 while the service still takes requests, before it closes. */
  shutdownDrainSeconds: number;
  /** Where scheduled backups go (absolute); null takes none. Embedded database only. */
  backupDir: string | null;
  backupIntervalMinutes: number;
  /** Scheduled backups kept: older ones of the service's own naming are deleted. */
  backupKeep: number;
  /** The audit stream: 'stdout', an absolute file path, or null (off). */
  auditLog: string | null;
  /** SECOND_FACTOR: who needs a second factor after the password (writers by default, off in demo mode). */
  secondFactor: SecondFactorPolicy;
  /** How long a verified second factor lets step-up actions through. */
  stepUpMinutes: number;
  /** ACTIVITY_RETENTION_DAYS: how long the Activity page's events are kept. */
  activityRetentionDays: number;
}

/**
 * Demo mode is on by default only where it cannot reach a real deployment: the embedded database, no bootstrap
 * admin, no directory, and a loopback address. Anything else says it is a real set-up, so demo needs DEMO=on.
 */
export function demoByDefault(env: NodeJS.ProcessEnv, host: string): boolean {
  return !env.DATABASE_URL?.trim() && !env.ADMIN_USERNAME?.trim() && !env.LDAP_URL?.trim() && isLoopbackHost(host);
}

/** The loud start-up warning a demo reachable from other machines deserves; null when there is none to give. */
export function demoExposureWarning(config: Pick<Config, 'demo' | 'host'>): string | null {
  if (!config.demo || isLoopbackHost(config.host)) return null;
  return (
    `WARNING: demo mode is on and the service listens on ${config.host}, beyond this machine. ` +
    'Anyone who can reach it can sign in with the published demo passwords. Set DEMO=off for a real deployment.'
  );
}

/** Base64url of exactly `bytes` bytes (a VAPID key), the first being `first` when given. */
function isBase64UrlKey(value: string, bytes: number, first?: number): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64url');
  return decoded.length === bytes && (first === undefined || decoded[0] === first);
}

/**
 * VAPID_SUBJECT: a mailto: address or an https: URL where push services can reach the operator. Apple's push service
 * refuses localhost subjects, so loopback hosts are refused here rather than by the first push.
 */
function vapidSubjectProblem(subject: string): string | null {
  const problem = `VAPID_SUBJECT must be a mailto: address or an https: URL of the operator (not localhost), got "${subject}"`;
  if (/^mailto:[^@\s]+@[^@\s]+$/i.test(subject)) {
    return isLoopbackHost(subject.slice(subject.indexOf('@') + 1)) ? problem : null;
  }
  try {
    const url = new URL(subject);
    return url.protocol === 'https:' && !isLoopbackHost(url.hostname) ? null : problem;
  } catch {
    return problem;
  }
}

/** PUSH_ALLOW_ORIGINS and ALERT_WEBHOOK_ALLOW_ORIGINS: each an origin alone (scheme, host, port), as the policies compare them. */
const originList =
  (name: string) =>
  (raw: string): string[] | { problem: string } => {
    const origins: string[] = [];
    for (const item of raw.split(/[\s,]+/).filter(Boolean)) {
      let url: URL | null = null;
      try {
        url = new URL(item);
      } catch {}
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== item.replace(/\/$/, '').toLowerCase()) {
        return {
          problem: `${name} must be origins such as https://receiver.acme.example:8443, separated by commas; "${item}" is not one`,
        };
      }
      origins.push(url.origin);
    }
    return origins;
  };

/** Serving the data folder as web content would hand out the database file, password hashes included. */
function checkWebRootSeparate(webRoot: string | null, dataDir: string, databaseUrl: string | null): void {
  if (webRoot === null || databaseUrl !== null) return;
  const relative = path.relative(webRoot, dataDir);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new ConfigError(
      `WEB_ROOT (${webRoot}) contains DATA_DIR (${dataDir}): the database would be served as a web page. ` +
        'Put the data folder outside the web root.',
    );
  }
}

export class ConfigError extends Error {}

/**
 * Scheduled backups copy the embedded database; PostgreSQL is backed up with its own tools. A backup folder inside the
 * data folder would be one disk's loss away from both copies, and a restore would find backups beside the database.
 */
function checkBackupDir(backupDir: string | null, dataDir: string, databaseUrl: string | null): void {
  if (backupDir === null) return;
  if (databaseUrl !== null) {
    throw new ConfigError(
      'BACKUP_DIR takes backups of the embedded database, but DATABASE_URL selects PostgreSQL: back that up with ' +
        'pg_dump (GET /api/Admin/Backup answers the command), and leave BACKUP_DIR unset.',
    );
  }
  if (backupDir === dataDir) {
    throw new ConfigError(`BACKUP_DIR (${backupDir}) is DATA_DIR: give the backups a folder of their own.`);
  }
}

/**
 * The break-glass account may not take a name the directory owns: it would shut the directory person of that name
 * out, and which of the two a sign-in means would depend on the password.
 */
function checkAdminOutsideDirectory(adminUserName: string | null, directory: DirectoryConfig | null): void {
  if (adminUserName === null || directory === null || !inDirectoryDomain(adminUserName, directory.domain)) return;
  throw new ConfigError(
    `ADMIN_USERNAME (${adminUserName}) is inside LDAP_DOMAIN (${directory.domain}): names there belong to the ` +
      'directory. Give the break-glass account a name in another domain (for example LOCAL\\admin).',
  );
}

/** ADMIN_PASSWORD follows the password policy of every local account: a weak one stops the start-up. */
function adminPasswordProblem(password: string): string | null {
  const weakness = passwordWeakness(password);
  return weakness
    ? `ADMIN_PASSWORD ${weakness}. Local passwords must be 12 to 128 characters and not a commonly used password ` +
        '(a passphrase of a few unrelated words works well).'
    : null;
}

function trustProxyValue(raw: string): Config['trustProxy'] | string {
  if (['0', 'off', 'false', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return hops > 100 ? `TRUST_PROXY hop count must be at most 100, got "${raw}"` : hops;
  }
  const proxies = raw.split(/[\s,]+/).filter(Boolean);
  for (const proxy of proxies) {
    const [address = '', bits, extra] = proxy.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validBits || extra !== undefined) {
      return `TRUST_PROXY must be off, a hop count, or proxy addresses / CIDR ranges separated by commas; "${proxy}" is none of these`;
    }
  }
  return proxies;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** ALLOWED_HOSTS: names as a Host header carries them without its port (an IPv6 address in brackets). */
function allowedHostsValue(raw: string): string[] | { problem: string } {
  const names: string[] = [];
  for (const entry of raw.split(/[\s,]+/).filter(Boolean)) {
    const name = entry.toLowerCase();
    const bare = name.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare) === 6) names.push(`[${bare}]`);
    else if (HOST_NAME.test(name)) names.push(name);
    else
      return {
        problem: `ALLOWED_HOSTS takes host names separated by commas, without scheme or port; "${entry}" is not one`,
      };
  }
  return names;
}

/**
 * One environment variable: unset or empty (or only spaces, unless `blankIsUnset` is off) gives `fallback`;
 * otherwise `read` turns the text into the value, or answers the message people see when the text is not one.
 */
function variable<T>(fallback: T, read: (raw: string) => T | { problem: string }, { blankIsUnset = true } = {}) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((raw: string | undefined, context): T => {
      if (raw === undefined || raw === '' || (blankIsUnset && raw.trim() === '')) return fallback;
      const value = read(raw);
      if (value !== null && typeof value === 'object' && 'problem' in value) {
        context.issues.push({ code: 'custom', message: value.problem, input: raw });
        return fallback;
      }
      return value as T;
    }),
  );
}

const text = <T extends string | null>(fallback: T) => variable<string | T>(fallback, (raw) => raw.trim());

const integer = (name: string, fallback: number, min: number, max: number) =>
  variable(fallback, (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max
      ? value
      : { problem: `${name} must be an integer from ${min} to ${max}, got "${raw}"` };
  });

/** Minutes that may be a fraction, as long as they come to whole seconds ("0.5" is 30 seconds). */
const minutes = (name: string, fallback: number, min: number, max: number) =>
  variable(fallback, (raw) => {
    const value = Number(raw);
    return Number.isFinite(value) && Number.isInteger(value * 60) && value >= min && value <= max
      ? value
      : { problem: `${name} must be minutes from ${min} to ${max} in whole seconds, got "${raw}"` };
  });

const flag = <T extends boolean | null>(name: string, fallback: T) =>
  variable<boolean | T>(fallback, (raw) => {
    const value = raw.trim().toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(value)) return true;
    if (['0', 'false', 'off', 'no'].includes(value)) return false;
    return { problem: `${name} must be on or off, got "${raw}"` };
  });

/**
 * The service's environment (docs/configuration.md): each variable's type, default and limits. What depends on
 * several variables (demo mode's default, the web root against the data folder, the directory) is decided in
 * loadConfig below.
 */
const Environment = z.object({
  PORT: integer('PORT', 8080, 0, 65535),
  HOST: text('127.0.0.1'),
  DATA_DIR: text('data'),
  DATABASE_URL: text(null),
  API_VERSION: variable<ApiVersion>(DEFAULT_API_VERSION, (raw) => {
    const version = raw.trim();
    return isApiVersion(version)
      ? version
      : { problem: `API_VERSION must be one of ${SUPPORTED_VERSIONS.join(', ')}, got "${version}"` };
  }),
  /** Null: decided by demoByDefault. */
  DEMO: flag('DEMO', null),
  TRUST_PROXY: variable<Config['trustProxy']>(false, (raw) => {
    const value = trustProxyValue(raw.trim());
    return typeof value === 'string' ? { problem: value } : value;
  }),
  ALLOWED_HOSTS: variable<string[]>([], allowedHostsValue),
  // Down to 15 seconds: a browser test then reaches the warning and the idle deadline in real time.
  SESSION_IDLE_MINUTES: minutes('SESSION_IDLE_MINUTES', DEFAULT_SESSION_IDLE_MINUTES, 0.25, 24 * 60),
  SESSION_ABSOLUTE_HOURS: integer('SESSION_ABSOLUTE_HOURS', 12, 1, 24 * 30),
  // N=2^17 with r=8, p=1: OWASP's minimum for scrypt (128 MiB and a few hundred milliseconds per hash).
  PASSWORD_HASH_COST: integer('PASSWORD_HASH_COST', 2 ** 17, 2 ** 10, 2 ** 20),
  LOGIN_FAILURES_PER_USER: integer('LOGIN_FAILURES_PER_USER', 5, 1, 1000),
  LOGIN_FAILURES_PER_ADDRESS: integer('LOGIN_FAILURES_PER_ADDRESS', 20, 1, 100000),
  LOGIN_FAILURE_WINDOW_SECONDS: integer('LOGIN_FAILURE_WINDOW_SECONDS', 300, 1, 86400),
  LOGIN_SLOW_AFTER_FAILURES: integer('LOGIN_SLOW_AFTER_FAILURES', 20, 1, 100000),
  LOGIN_SLOW_SECONDS: integer('LOGIN_SLOW_SECONDS', 5, 1, 300),
  LOGIN_RATE_PER_MINUTE: integer('LOGIN_RATE_PER_MINUTE', 60, 1, 1_000_000),
  DEMO_CREATIONS_PER_MINUTE: integer('DEMO_CREATIONS_PER_MINUTE', 30, 1, 100_000),
  LIVE_STREAMS_PER_ACCOUNT: integer('LIVE_STREAMS_PER_ACCOUNT', 10, 1, 10_000),
  // Unset: derived from the process's open-file limit (lib/open-file-limit.ts).
  LIVE_STREAMS_PER_PROCESS: variable<number | null>(null, (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= 1 && value <= 1_000_000
      ? value
      : { problem: `LIVE_STREAMS_PER_PROCESS must be an integer from 1 to 1000000, got "${raw}"` };
  }),
  CONNECT_SRC: variable<string[]>([], (raw) => raw.split(/[\s,]+/).filter(Boolean)),
  ADMIN_USERNAME: text(null),
  // Taken as typed: spaces may be part of a password (the policy judges one made only of them).
  ADMIN_PASSWORD: variable<string | null>(
    null,
    (raw) => {
      const problem = adminPasswordProblem(raw);
      return problem ? { problem } : raw;
    },
    { blankIsUnset: false },
  ),
  ADMIN_FORCE_ENABLE: flag('ADMIN_FORCE_ENABLE', false),
  LOG_LEVEL: text('info'),
  REQUEST_TIMEOUT_SECONDS: integer('REQUEST_TIMEOUT_SECONDS', 30, 1, 3600),
  BASIC_AUTH: flag('BASIC_AUTH', true),
  METRICS: flag('METRICS', false),
  METRICS_TOKEN: variable<string | null>(null, (raw) =>
    METRICS_TOKEN_SHAPE.test(raw.trim())
      ? raw.trim()
      : {
          problem:
            'METRICS_TOKEN must be 16 to 512 characters from A-Z a-z 0-9 . _ ~ + / = - (what a Bearer header carries); ' +
            'a long random one, for example from `openssl rand -hex 32`',
        },
  ),
  VAPID_PUBLIC_KEY: variable<string | null>(null, (raw) =>
    isBase64UrlKey(raw.trim(), 65, 0x04)
      ? raw.trim()
      : { problem: 'VAPID_PUBLIC_KEY must be base64url of a 65-byte uncompressed P-256 public key' },
  ),
  VAPID_PRIVATE_KEY: variable<string | null>(null, (raw) =>
    isBase64UrlKey(raw.trim(), 32)
      ? raw.trim()
      : { problem: 'VAPID_PRIVATE_KEY must be base64url of a 32-byte P-256 private key' },
  ),
  VAPID_SUBJECT: variable<string | null>(null, (raw) => {
    const problem = vapidSubjectProblem(raw.trim());
    return problem ? { problem } : raw.trim();
  }),
  PUSH_ALLOW_ORIGINS: variable<string[]>([], originList('PUSH_ALLOW_ORIGINS')),
  SMTP_URL: variable<string | null>(null, (raw) => {
    const url = URL.parse(raw.trim());
    return url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname
      ? raw.trim()
      : { problem: 'SMTP_URL must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS from the start)' };
  }),
  SMTP_FROM: variable<string | null>(null, (raw) =>
    /^[^\s@<>]+@[^\s@<>]+$/.test(raw.trim())
      ? raw.trim()
      : { problem: `SMTP_FROM must be an email address, got "${raw}"` },
  ),
  ALERT_WEBHOOK_ALLOW_ORIGINS: variable<string[]>([], originList('ALERT_WEBHOOK_ALLOW_ORIGINS')),
  PUBLIC_URL: variable<string | null>(null, (raw) => {
    const url = URL.parse(raw.trim());
    return url && (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === '/' && !url.search
      ? url.origin
      : { problem: `PUBLIC_URL must be an http(s) origin such as https://tachyon.acme.example, got "${raw}"` };
  }),
  TLS_CERT_FILE: text(null),
  TLS_KEY_FILE: text(null),
  TLS_OLD_CLIENTS: flag('TLS_OLD_CLIENTS', false),
  HSTS_PRELOAD: flag('HSTS_PRELOAD', false),
  INSECURE_HTTP: flag('INSECURE_HTTP', false),
  SHUTDOWN_DRAIN_SECONDS: integer('SHUTDOWN_DRAIN_SECONDS', 0, 0, 300),
  BACKUP_DIR: text(null),
  BACKUP_INTERVAL_MINUTES: integer('BACKUP_INTERVAL_MINUTES', 1440, 1, 7 * 24 * 60),
  BACKUP_KEEP: integer('BACKUP_KEEP', 7, 1, 1000),
  AUDIT_LOG: text(null),
  /** Null: writers, or off in demo mode. */
  SECOND_FACTOR: variable<SecondFactorPolicy | null>(null, (raw) => {
    const value = raw.trim().toLowerCase();
    return (SECOND_FACTOR_POLICIES as readonly string[]).includes(value)
      ? (value as SecondFactorPolicy)
      : { problem: `SECOND_FACTOR must be one of ${SECOND_FACTOR_POLICIES.join(', ')}, got "${raw}"` };
  }),
  STEP_UP_MINUTES: minutes('STEP_UP_MINUTES', 5, 0.25, 24 * 60),
  ACTIVITY_RETENTION_DAYS: integer('ACTIVITY_RETENTION_DAYS', 365, 1, 100 * 365),
  METRICS_PORT: variable<number | null>(null, (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= 1 && value <= 65535
      ? value
      : { problem: `METRICS_PORT must be an integer from 1 to 65535, got "${raw}"` };
  }),
});

/** A Bearer token's characters, and enough of them that guessing is hopeless. */
const METRICS_TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/**
 * The metrics show sign-in outcomes as they happen and the versions running: on the public port only a scraper that
 * knows the token may read them. A port of their own is reachable only where the operator lets it be.
 */
function checkMetricsToken(metrics: boolean, token: string | null): void {
  if (metrics && token === null) {
    throw new ConfigError(
      'METRICS=on serves the metrics on the public port, which needs METRICS_TOKEN: a long random value the scraper ' +
        'sends as Authorization: Bearer <METRICS_TOKEN>. Or leave METRICS off and serve them on a port of their own ' +
        'with METRICS_PORT (no token there).',
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = Environment.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0]?.message ?? 'Invalid configuration');
  const vars = parsed.data;
  const dataDir = path.resolve(cwd, vars.DATA_DIR);
  // WEB_ROOT set but empty serves no dashboard; unset serves the built one.
  const webRoot = env.WEB_ROOT === '' ? null : path.resolve(cwd, env.WEB_ROOT?.trim() || 'dist/web');
  checkWebRootSeparate(webRoot, dataDir, vars.DATABASE_URL);
  const directory = loadDirectoryConfig(env, (message) => new ConfigError(message));
  checkAdminOutsideDirectory(vars.ADMIN_USERNAME, directory);
  const oidc = loadOidcConfig(env, (message) => new ConfigError(message));
  if (oidc && directory && oidc.domain === directory.domain) {
    throw new ConfigError(
      `OIDC_DOMAIN (${oidc.domain}) is LDAP_DOMAIN: give the people who sign in with single sign-on a domain of their own`,
    );
  }
  checkMetricsToken(vars.METRICS, vars.METRICS_TOKEN);
  const backupDir = vars.BACKUP_DIR === null ? null : path.resolve(cwd, vars.BACKUP_DIR);
  checkBackupDir(backupDir, dataDir, vars.DATABASE_URL);
  if ((vars.VAPID_PUBLIC_KEY === null) !== (vars.VAPID_PRIVATE_KEY === null)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both (one pair), or neither');
  }
  const tls = tlsFilesOf(vars.TLS_CERT_FILE, vars.TLS_KEY_FILE, cwd, vars.TLS_OLD_CLIENTS);
  const publicUrl = vars.PUBLIC_URL ?? defaultPublicUrl(vars.HOST, vars.PORT, tls !== null);
  if (tls !== null && 'problem' in tls) throw new ConfigError(tls.problem);
  const refusal = plainHttpRefusal({
    loopback: isLoopbackHost(vars.HOST),
    tls,
    trustProxy: vars.TRUST_PROXY,
    insecureHttp: vars.INSECURE_HTTP,
  });
  if (refusal) throw new ConfigError(refusal);
  const demo = vars.DEMO ?? demoByDefault(env, vars.HOST);
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    databaseUrl: vars.DATABASE_URL,
    defaultApiVersion: vars.API_VERSION,
    demo,
    trustProxy: vars.TRUST_PROXY,
    allowedHosts: vars.ALLOWED_HOSTS,
    sessionIdleMinutes: vars.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: vars.SESSION_ABSOLUTE_HOURS,
    passwordHashCost: vars.PASSWORD_HASH_COST,
    loginFailuresPerUser: vars.LOGIN_FAILURES_PER_USER,
    loginFailuresPerAddress: vars.LOGIN_FAILURES_PER_ADDRESS,
    loginFailureWindowSeconds: vars.LOGIN_FAILURE_WINDOW_SECONDS,
    loginSlowAfterFailures: vars.LOGIN_SLOW_AFTER_FAILURES,
    loginSlowSeconds: vars.LOGIN_SLOW_SECONDS,
    loginRatePerMinute: vars.LOGIN_RATE_PER_MINUTE,
    demoCreationsPerMinute: vars.DEMO_CREATIONS_PER_MINUTE,
    liveStreamsPerAccount: vars.LIVE_STREAMS_PER_ACCOUNT,
    liveStreamsPerProcess: vars.LIVE_STREAMS_PER_PROCESS ?? streamsPerProcessFor(readOpenFileLimit()),
    connectSources: vars.CONNECT_SRC,
    directory,
    oidc,
    adminUserName: vars.ADMIN_USERNAME,
    adminPassword: vars.ADMIN_PASSWORD,
    adminForceEnable: vars.ADMIN_FORCE_ENABLE,
    webRoot,
    logLevel: vars.LOG_LEVEL,
    basicAuth: vars.BASIC_AUTH,
    requestTimeoutSeconds: vars.REQUEST_TIMEOUT_SECONDS,
    metrics: vars.METRICS,
    metricsToken: vars.METRICS_TOKEN,
    metricsPort: vars.METRICS_PORT,
    vapidPublicKey: vars.VAPID_PUBLIC_KEY,
    vapidPrivateKey: vars.VAPID_PRIVATE_KEY,
    vapidSubject: vars.VAPID_SUBJECT,
    pushAllowOrigins: vars.PUSH_ALLOW_ORIGINS,
    smtpUrl: vars.SMTP_URL,
    smtpFrom: vars.SMTP_FROM ?? `tachyon-alerts@${new URL(publicUrl).hostname}`,
    alertWebhookAllowOrigins: vars.ALERT_WEBHOOK_ALLOW_ORIGINS,
    publicUrl,
    publicUrlSet: vars.PUBLIC_URL !== null,
    tls,
    hstsPreload: vars.HSTS_PRELOAD,
    insecureHttp: vars.INSECURE_HTTP,
    shutdownDrainSeconds: vars.SHUTDOWN_DRAIN_SECONDS,
    backupDir,
    backupIntervalMinutes: vars.BACKUP_INTERVAL_MINUTES,
    backupKeep: vars.BACKUP_KEEP,
    auditLog:
      vars.AUDIT_LOG === null || vars.AUDIT_LOG === 'stdout' ? vars.AUDIT_LOG : path.resolve(cwd, vars.AUDIT_LOG),
    // Demo accounts' passwords are published, so a second factor would only be in the way of the walkthrough there;
    // every method still works in demo mode, as an option.
    secondFactor: vars.SECOND_FACTOR ?? (demo ? 'off' : 'writers'),
    stepUpMinutes: vars.STEP_UP_MINUTES,
    activityRetentionDays: vars.ACTIVITY_RETENTION_DAYS,
  };
}

/** Where a person on this machine reaches the service when nobody said otherwise. */
function defaultPublicUrl(host: string, port: number, https: boolean): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const name = isLoopbackHost(host) || bare === '0.0.0.0' || bare === '::' ? 'localhost' : host;
  return `${https ? 'https' : 'http'}://${isIP(name) === 6 ? `[${name}]` : name}:${port}`;
}
