import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
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
  close(): Promise<void>;
}

export const ADMIN = ['DEMO\\admin', 'Admin#2026'] as const;
export const HELPDESK = ['DEMO\\helpdesk', 'Helpdesk#2026'] as const;
export const AUDITOR = ['DEMO\\auditor', 'Auditor#2026'] as const;
export const OPERATOR = ['DEMO\\operator', 'Operator#2026'] as const;

/**
 * The real service on a fresh in-memory SQLite database with demo data, a fake clock,
 * and a cheap password hash (production cost is measured in the bench, not here).
 * Pass `databaseUrl` through the environment variable TEST_DATABASE_URL to run on PostgreSQL.
 */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  // TEST_DATABASE_URL: a fresh PostgreSQL database per app (unless the test names one), dropped on close.
  const server = overrides.databaseUrl === undefined ? testDatabaseServer() : null;
  const testDatabase = server ? await createTestDatabase(server) : null;
  const config: Config = {
    ...loadConfig({}),
    passwordHashCost: 1024,
    webRoot: null,
    demo: true,
    logLevel: 'silent',
    loginRatePerMinute: 10_000,
    ...(testDatabase ? { databaseUrl: testDatabase.url } : {}),
    ...overrides,
  };
  const clock = new FakeClock();
  const database = openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { sqliteFile: ':memory:' });
  const app = await buildApp({ config, database, clock: clock.now }, false);

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
    async close() {
      await app.close();
      await database.close();
      await testDatabase?.drop();
    },
  };
}
