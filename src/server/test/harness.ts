import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type InjectOptions,
  type LightMyRequestResponse,
} from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { z } from 'zod/mini';
import {
  type AuthorizationRequest,
  AuthorizationRequest as AuthorizationRequestSchema,
  type DemoAuthorizationRequestInput,
  type DemoInstruction,
  DemoInstruction as DemoInstructionSchema,
  DemoPushList,
  formatTimestamp,
  type Permission,
  PROBLEM_CONTENT_TYPE,
  Problem,
  type ProblemKind,
  problemType,
} from '../../shared/contract/index.ts';
import { type AppOptions, buildApp, serverOptions, app as servicePlugin } from '../app.ts';
import type { AuditSink } from '../audit/audit-log.ts';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import type { HostLookup } from '../domain/devices/push-endpoint-policy.ts';
import { upsertPrincipal } from '../domain/identity/principals.ts';
import { conformanceHook } from './openapi-conformance.ts';
import { createTestDatabase, testDatabaseServer } from './test-database.ts';

/** A clock tests move by hand: session idle/absolute expiry, token expiry. */
export class FakeClock {
  private current: number;

  constructor(start = Date.parse('2026-11-21T09:00:00.000Z')) {
    this.current = start;
  }

  /** Milliseconds the clock moves on after each reading; 0 (the default) keeps it still until moved. */
  step = 0;

  readonly now = () => {
    const date = new Date(this.current);
    this.current += this.step;
    return date;
  };

  /** The current time in the interface's timestamp shape. */
  readonly stamp = () => formatTimestamp(this.now());

  advanceMinutes(minutes: number): void {
    this.current += minutes * 60_000;
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: FakeClock;
  config: Config;
  database: DatabaseHandle;
  /** Signs in and returns the bearer token. */
  login(userName: string, password: string): Promise<string>;
  /** inject() with an optional bearer token and Api-Version. */
  call(options: InjectOptions & { token?: string; version?: string }): Promise<LightMyRequestResponse>;
  /** Creates (or resets) a principal with exactly these Security permissions. */
  addPrincipal(userName: string, password: string, security: readonly Permission[]): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Adds routes or hooks to the instance before it becomes ready (for example a route that throws). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * A Web Push sender (tests pass a recording one: test/device-helpers.ts); 'production' for the service's own.
   * None by default: a test that stores a subscription must not send anything anywhere unless it says so.
   */
  pushSender?: AppOptions['pushSender'] | 'production';
  /** Stands in for DNS in the push endpoint policy. */
  hostLookup?: HostLookup;
  /** Receives the audit stream's lines (test/audit-lines.ts keeps them in memory). */
  auditSink?: AuditSink;
  /** A CA the email alerts' SMTP connection trusts (a test's own mail server). */
  smtpCa?: string;
}

export const ADMIN = ['DEMO\\admin', 'Admin#2026'] as const;
export const HELPDESK = ['DEMO\\helpdesk', 'Helpdesk#2026'] as const;
export const AUDITOR = ['DEMO\\auditor', 'Auditor#2026'] as const;
export const OPERATOR = ['DEMO\\operator', 'Operator#2026'] as const;
/** The demo's staff, each signed in: for tests of who may see and do what among them. */
export const DEMO_STAFF = { admin: ADMIN, helpdesk: HELPDESK, auditor: AUDITOR, operator: OPERATOR } as const;

/** The cheapest scrypt cost the config allows: tests sign in often. */
const TEST_HASH_COST = 1024;

/**
 * The real service on a fresh in-memory SQLite database with demo data, a fake clock,
 * and a cheap password hash (production cost is measured in the bench, not here).
 * Pass `databaseUrl` through the environment variable TEST_DATABASE_URL to run on PostgreSQL.
 */
export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  // TEST_DATABASE_URL: a fresh PostgreSQL database per app (unless the test names one), dropped on close.
  const server = overrides.databaseUrl === undefined ? testDatabaseServer() : null;
  const testDatabase = server ? await createTestDatabase(server) : null;
  const config: Config = {
    ...loadConfig({}),
    passwordHashCost: TEST_HASH_COST,
    webRoot: null,
    demo: true,
    logLevel: 'silent',
    loginRatePerMinute: 10_000,
    // Real-time windows: many tests create far more demo requests a minute than a person would.
    demoCreationsPerMinute: 100_000,
    ...(testDatabase ? { databaseUrl: testDatabase.url } : {}),
    ...overrides,
  };
  const clock = new FakeClock();
  const database = openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { sqliteFile: ':memory:' });
  const appOptions: AppOptions = {
    config,
    database,
    clock: clock.now,
    ...(options.pushSender === 'production' ? {} : { pushSender: options.pushSender ?? null }),
    ...(options.hostLookup ? { hostLookup: options.hostLookup } : {}),
    ...(options.auditSink ? { auditSink: options.auditSink } : {}),
    ...(options.smtpCa ? { smtpCa: options.smtpCa } : {}),
  };
  // What buildApp does, with the harness's hook and the test's additions before ready().
  const app = Fastify(serverOptions(config, false));
  // Every answer any test receives must match the OpenAPI document (checked again at close()).
  const conformanceFailures: string[] = [];
  app.addHook('onSend', conformanceHook(conformanceFailures));
  await app.register(servicePlugin, appOptions);
  await options.extend?.(app);
  await app.ready();

  const call: TestApp['call'] = ({ token, version, headers, ...rest }) =>
    app.inject({
      ...rest,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(version ? { 'api-version': version } : {}),
        ...headers,
      },
    });

  return {
    app,
    clock,
    config,
    database,
    call,
    async login(userName, password) {
      const response = await call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: userName, Password: password },
      });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return response.json<{ Token: string }>().Token;
    },
    async addPrincipal(userName, password, security) {
      await upsertPrincipal(
        database.db,
        {
          userName,
          password,
          grants: security.map((permission) => ({ entity: 'Security', permission })),
          now: clock.now(),
        },
        TEST_HASH_COST,
      );
    },
    async close() {
      await app.close();
      await database.close();
      await testDatabase?.drop();
      expect(conformanceFailures, 'answers that do not match the OpenAPI document').toEqual([]);
    },
  };
}

/** Parses a response body with a contract schema (so field names and types are the seed's). */
export function parseBody<S extends z.ZodMiniType>(response: LightMyRequestResponse, schema: S): z.output<S> {
  return schema.parse(response.json());
}

/**
 * Asserts an RFC 9457 problem: the status, the problem type of the contract, the problem content type,
 * and a body that matches the contract's Problem schema. Returns the body for further checks.
 */
export function expectProblem(
  response: LightMyRequestResponse,
  status: number,
  kind: ProblemKind,
): Problem & Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json\b/);
  expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
  const body = response.json<Problem & Record<string, unknown>>();
  Problem.parse(body);
  expect(body.type).toBe(problemType(kind));
  expect(body.status).toBe(status);
  expect(body.title).not.toBe('');
  expect(body.detail).toBeTruthy();
  // The members the published SDK reads (SPEC §3), on every problem.
  expect(body.Message).toBe(body.detail);
  expect(body.ErrorCode).toBe(kind);
  return body;
}

/** The path of each `errors[]` entry of a validation problem. */
export function errorPaths(problem: Problem): string[] {
  return (problem.errors ?? []).map((error) => error.path).sort();
}

// Demo actors, through the HTTP interface (SPEC §3 "Demo mode").

export async function demoCreateInstruction(t: TestApp, token: string, scheduled = false): Promise<DemoInstruction> {
  const response = await t.call({
    method: 'POST',
    url: '/api/Demo/Instructions',
    token,
    payload: { Scheduled: scheduled },
  });
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, DemoInstructionSchema);
}

/** The newest token pushed to the caller's devices for this instruction, read as the person would read their phone. */
export async function pushedToken(t: TestApp, token: string, instructionId: number): Promise<string> {
  const response = await t.call({ method: 'GET', url: '/api/Demo/Pushes', token });
  expect(response.statusCode, response.body).toBe(200);
  const push = parseBody(response, DemoPushList).find((item) => item.InstructionId === instructionId);
  if (!push) throw new Error(`no push for instruction ${instructionId}`);
  return push.Token;
}

/** A token that is certainly not the given one (same shape: six digits). */
export function wrongToken(token: string): string {
  return String((Number(token) + 1) % 1_000_000).padStart(6, '0');
}

export async function demoCreateRequest(
  t: TestApp,
  token: string,
  input: DemoAuthorizationRequestInput = {},
): Promise<AuthorizationRequest> {
  const response = await t.call({ method: 'POST', url: '/api/Demo/AuthorizationRequests', token, payload: input });
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, AuthorizationRequestSchema);
}

/**
 * The service started again on a test app's database, with its clock and settings plus `overrides`: a restart or a
 * redeploy with other settings (close the test app's instance first when only one may run). The caller closes it.
 */
export function restartApp(
  t: TestApp,
  overrides: Partial<Config> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<FastifyInstance> {
  return buildApp({ config: { ...t.config, ...overrides }, database: t.database, clock: t.clock.now }, logger);
}

/**
 * A second service process beside a test app on its PostgreSQL database: the same settings and clock, and a
 * connection pool of its own (opened from DATABASE_URL, closed with the instance). The caller closes it.
 */
export function secondProcess(t: TestApp): Promise<FastifyInstance> {
  if (!t.config.databaseUrl) throw new Error('secondProcess: two processes share only a PostgreSQL database');
  return buildApp({ config: t.config, clock: t.clock.now }, false);
}

export interface TestAppSetUp<Name extends string> {
  config?: Partial<Config>;
  options?: TestAppOptions;
  /** Who signs in once the app is up; each token is then in `tokens` under the same name. */
  signIn?: Record<Name, readonly [string, string]>;
  /** A fresh app for every test (the default), or one for the whole file (tests that leave nothing behind). */
  per?: 'test' | 'file';
}

/**
 * Registers the set-up most service tests share: an app (createTestApp) made before each test or once per file,
 * the named accounts signed in, and the app closed afterwards. `t` stands for the current app; `tokens` holds the
 * sign-ins' tokens.
 */
export function useTestApp<Name extends string = never>({
  config = {},
  options = {},
  signIn,
  per = 'test',
}: TestAppSetUp<Name> = {}): { t: TestApp; tokens: Record<Name, string> } {
  let current: TestApp | undefined;
  const tokens = {} as Record<Name, string>;
  const app = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app exists only inside a test');
    return current;
  };
  const t: TestApp = {
    get app() {
      return app().app;
    },
    get clock() {
      return app().clock;
    },
    get config() {
      return app().config;
    },
    get database() {
      return app().database;
    },
    login: (userName, password) => app().login(userName, password),
    call: (request) => app().call(request),
    addPrincipal: (userName, password, security) => app().addPrincipal(userName, password, security),
    close: () => app().close(),
  };
  const [before, after] = per === 'test' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await createTestApp(config, options);
    for (const [name, [userName, password]] of Object.entries(signIn ?? {}) as [Name, readonly [string, string]][]) {
      tokens[name] = await current.login(userName, password);
    }
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  return { t, tokens };
}
