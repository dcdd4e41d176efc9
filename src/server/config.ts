import { isIP } from 'node:net';
import path from 'node:path';
import { type ApiVersion, DEFAULT_API_VERSION, isApiVersion, SUPPORTED_VERSIONS } from '../shared/contract/index.ts';
import { type DirectoryConfig, loadDirectoryConfig } from './directory-config.ts';
import { passwordWeakness } from './domain/password-policy.ts';

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
  /** Extra origins the dashboard may call (CSP connect-src), for pointing it at another server. */
  connectSources: string[];
  /** LDAP / Active Directory sign-in (issue 10); null when LDAP_URL is unset. */
  directory: DirectoryConfig | null;
  /** Optional bootstrap principal with Security and Accounts Read+Write, for deployments without demo data. */
  adminUserName: string | null;
  adminPassword: string | null;
  /** Where the built dashboard lives; null serves no dashboard. */
  webRoot: string | null;
  logLevel: string;
  /** HTTP Basic credentials on the API (the published SDK answers a Basic challenge instead of sending a token). */
  basicAuth: boolean;
  /** Prometheus metrics at /api/metrics on the public port. */
  metrics: boolean;
  /** A separate port serving only the metrics (on HOST); null for none. */
  metricsPort: number | null;
}

/** Loopback names and addresses: a service listening only there cannot be reached from another machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
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

function trustProxy(env: NodeJS.ProcessEnv): Config['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || ['0', 'off', 'false', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY hop count must be at most 100, got "${raw}"`);
    return hops;
  }
  const proxies = raw.split(/[\s,]+/).filter(Boolean);
  for (const proxy of proxies) {
    const [address = '', bits, extra] = proxy.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validBits || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must be off, a hop count, or proxy addresses / CIDR ranges separated by commas; "${proxy}" is none of these`,
      );
    }
  }
  return proxies;
}

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

/** ADMIN_PASSWORD follows the password policy of every local account: a weak one stops the start-up. */
function adminPassword(env: NodeJS.ProcessEnv): string | null {
  const password = env.ADMIN_PASSWORD || null;
  if (password === null) return null;
  const weakness = passwordWeakness(password);
  if (weakness) {
    throw new ConfigError(
      `ADMIN_PASSWORD ${weakness}. Local passwords must be 12 to 128 characters and not a commonly used password ` +
        '(a passphrase of a few unrelated words works well).',
    );
  }
  return password;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const apiVersion = env.API_VERSION?.trim() || DEFAULT_API_VERSION;
  if (!isApiVersion(apiVersion)) {
    throw new ConfigError(`API_VERSION must be one of ${SUPPORTED_VERSIONS.join(', ')}, got "${apiVersion}"`);
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  const dataDir = path.resolve(cwd, env.DATA_DIR?.trim() || 'data');
  const webRoot = env.WEB_ROOT === '' ? null : path.resolve(cwd, env.WEB_ROOT?.trim() || 'dist/web');
  checkWebRootSeparate(webRoot, dataDir, databaseUrl);
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    dataDir,
    databaseUrl,
    defaultApiVersion: apiVersion,
    demo: flag(env, 'DEMO', demoByDefault(env, host)),
    trustProxy: trustProxy(env),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
    sessionAbsoluteHours: integer(env, 'SESSION_ABSOLUTE_HOURS', 12, 1, 24 * 30),
    passwordHashCost: integer(env, 'PASSWORD_HASH_COST', 2 ** 15, 2 ** 10, 2 ** 20),
    loginFailuresPerUser: integer(env, 'LOGIN_FAILURES_PER_USER', 5, 1, 1000),
    loginFailuresPerAddress: integer(env, 'LOGIN_FAILURES_PER_ADDRESS', 20, 1, 100000),
    loginFailureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 300, 1, 86400),
    loginSlowAfterFailures: integer(env, 'LOGIN_SLOW_AFTER_FAILURES', 20, 1, 100000),
    loginSlowSeconds: integer(env, 'LOGIN_SLOW_SECONDS', 5, 1, 300),
    loginRatePerMinute: integer(env, 'LOGIN_RATE_PER_MINUTE', 60, 1, 1_000_000),
    demoCreationsPerMinute: integer(env, 'DEMO_CREATIONS_PER_MINUTE', 30, 1, 100_000),
    connectSources: (env.CONNECT_SRC ?? '').split(/[\s,]+/).filter(Boolean),
    directory: loadDirectoryConfig(env, (message) => new ConfigError(message)),
    adminUserName: env.ADMIN_USERNAME?.trim() || null,
    adminPassword: adminPassword(env),
    webRoot,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    basicAuth: flag(env, 'BASIC_AUTH', true),
    metrics: flag(env, 'METRICS', false),
    metricsPort: env.METRICS_PORT?.trim() ? integer(env, 'METRICS_PORT', 0, 1, 65535) : null,
  };
}
