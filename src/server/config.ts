import path from 'node:path';
import { type ApiVersion, DEFAULT_API_VERSION, isApiVersion, SUPPORTED_VERSIONS } from '../shared/contract/index.ts';

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded database; ignored when databaseUrl is set. */
  dataDir: string;
  /** A PostgreSQL connection string; null selects the embedded SQLite database. */
  databaseUrl: string | null;
  defaultApiVersion: ApiVersion;
  demo: boolean;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** scrypt cost (N) for new password hashes; tests lower it, production keeps the default. */
  passwordHashCost: number;
  /** Failed logins allowed per user name, and per client address, in loginFailureWindowSeconds. */
  loginFailuresPerUser: number;
  loginFailuresPerAddress: number;
  loginFailureWindowSeconds: number;
  /** Sign-in attempts per client address per minute, successful or not. */
  loginRatePerMinute: number;
  /** Extra origins the dashboard may call (CSP connect-src), for pointing it at another server. */
  connectSources: string[];
  /** Optional bootstrap principal with Security Read+Write, for deployments without demo data. */
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

export class ConfigError extends Error {}

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
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || 'data'),
    databaseUrl,
    defaultApiVersion: apiVersion,
    // Demo data belongs with the embedded default; a real PostgreSQL deployment starts clean.
    demo: flag(env, 'DEMO', databaseUrl === null),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
    sessionAbsoluteHours: integer(env, 'SESSION_ABSOLUTE_HOURS', 12, 1, 24 * 30),
    passwordHashCost: integer(env, 'PASSWORD_HASH_COST', 2 ** 15, 2 ** 10, 2 ** 20),
    loginFailuresPerUser: integer(env, 'LOGIN_FAILURES_PER_USER', 5, 1, 1000),
    loginFailuresPerAddress: integer(env, 'LOGIN_FAILURES_PER_ADDRESS', 20, 1, 100000),
    loginFailureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 300, 1, 86400),
    loginRatePerMinute: integer(env, 'LOGIN_RATE_PER_MINUTE', 60, 1, 1_000_000),
    connectSources: (env.CONNECT_SRC ?? '').split(/[\s,]+/).filter(Boolean),
    adminUserName: env.ADMIN_USERNAME?.trim() || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    webRoot: env.WEB_ROOT === '' ? null : path.resolve(cwd, env.WEB_ROOT?.trim() || 'dist/web'),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    basicAuth: flag(env, 'BASIC_AUTH', true),
    metrics: flag(env, 'METRICS', false),
    metricsPort: env.METRICS_PORT?.trim() ? integer(env, 'METRICS_PORT', 0, 1, 65535) : null,
  };
}
