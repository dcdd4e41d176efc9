import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Account, AccountHistoryList, AccountList, type AccountPermissions } from '../../shared/contract/index.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { migrationProvider } from '../db/migrations/index.ts';
import { ADMIN, createTestApp, expectProblem, parseBody, restartApp, type TestApp } from '../test/harness.ts';
import { logCapture } from '../test/log-capture.ts';
import { createTestDatabase, testDatabaseServer } from '../test/test-database.ts';

/** Accounts that outlive the settings they were made under: each fault as it was seen, now refused. */
const LOGIN = '/api/Consumer/Authentication';
const SESSION = '/api/Consumer/Authentication/Session';
const ACCOUNTS = '/api/Admin/Accounts';
const ROOT = ['CORP\\root', 'violet harbour lantern 42'] as const;
const STRONG = 'quiet orchard telescope 7';
const POSTGRES = testDatabaseServer() !== null;
const ALL: AccountPermissions = { Security: ['Read', 'Write'], Accounts: ['Read', 'Write'] };

// Each test starts the service up to four times on one database, each start migrating and seeding it: on PostgreSQL
// that is more than the default limit allows for on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let t: TestApp | undefined;
/** The app serving now: the harness's until the first restart, then the latest restart's. */
let current: FastifyInstance | undefined;
afterEach(async () => {
  if (current && current !== t?.app) await current.close();
  current = undefined;
  await t?.close();
  t = undefined;
});

async function start(overrides: Partial<Config> = {}): Promise<TestApp> {
  t = await createTestApp(overrides);
  current = t.app;
  return t;
}

/** The same service started again on the same database with other settings (a redeploy). */
async function restart(overrides: Partial<Config>, logger: ReturnType<typeof logCapture>['logger'] | false = false) {
  if (!t || !current) throw new Error('start first');
  await current.close();
  current = await restartApp(t, overrides, logger);
  return current;
}

function call(
  app: FastifyInstance,
  { token, ...options }: InjectOptions & { token?: string },
): Promise<LightMyRequestResponse> {
  return app.inject({
    ...options,
    headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

const signIn = (app: FastifyInstance, [UserName, Password]: readonly [string, string]) =>
  app.inject({ method: 'POST', url: LOGIN, payload: { UserName, Password } });

async function tokenOf(app: FastifyInstance, credentials: readonly [string, string]): Promise<string> {
  const response = await signIn(app, credentials);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ Token: string }>().Token;
}

async function accountNamed(app: FastifyInstance, token: string, userName: string): Promise<Account> {
  const list = parseBody(await call(app, { method: 'GET', url: ACCOUNTS, token }), AccountList);
  const account = list.find((item) => item.UserName === userName);
  if (!account) throw new Error(`no account ${userName}`);
  return account;
}

async function createAccount(app: FastifyInstance, token: string, userName: string): Promise<Account> {
  const response = await call(app, {
    method: 'POST',
    url: ACCOUNTS,
    token,
    payload: { UserName: userName, Password: STRONG, Permissions: ALL },
  });
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, Account);
}

const setEnabled = (app: FastifyInstance, token: string, id: number, Enabled: boolean) =>
  call(app, { method: 'PUT', url: `${ACCOUNTS}/${id}/Enabled`, token, payload: { Enabled } });

const historyOf = async (app: FastifyInstance, token: string, id: number) =>
  parseBody(await call(app, { method: 'GET', url: `${ACCOUNTS}/${id}/History`, token }), AccountHistoryList);

describe('the break-glass account (ADMIN_USERNAME) stays disabled once an administrator disabled it', () => {
  const admin = { demo: false, adminUserName: ROOT[0], adminPassword: ROOT[1] };

  it('keeps it disabled at the next start, warning, and enables it again only with ADMIN_FORCE_ENABLE=on', async () => {
    const a = await start(admin);
    const root = await tokenOf(a.app, ROOT);
    await createAccount(a.app, root, 'CORP\\ops');
    const ops = await tokenOf(a.app, ['CORP\\ops', STRONG]);
    const rootId = (await accountNamed(a.app, ops, ROOT[0])).Id;
    expect((await setEnabled(a.app, ops, rootId, false)).statusCode).toBe(200);

    const log = logCapture();
    const next = await restart({}, log.logger);
    expectProblem(await signIn(next, ROOT), 401, 'invalid-credentials');
    const opsAgain = await tokenOf(next, ['CORP\\ops', STRONG]);
    expect((await accountNamed(next, opsAgain, ROOT[0])).Enabled).toBe(false);
    const [warning] = log.warnings('ADMIN_USERNAME');
    expect(warning?.msg).toContain(ROOT[0]);
    expect(warning?.msg).toContain('ADMIN_FORCE_ENABLE=on');

    const forced = await restart({ adminForceEnable: true });
    const rootAgain = await tokenOf(forced, ROOT);
    const history = await historyOf(forced, rootAgain, rootId);
    expect(history.find((entry) => entry.Action === 'Enabled')).toMatchObject({ ChangedBy: 'ADMIN_FORCE_ENABLE' });
    // Already enabled: a later start with the flag still on records nothing more.
    const again = await restart({ adminForceEnable: true });
    const afterwards = await historyOf(again, await tokenOf(again, ROOT), rootId);
    expect(afterwards.filter((entry) => entry.Action === 'Enabled')).toHaveLength(1);
  });

  it('reads ADMIN_FORCE_ENABLE as a flag, off by default', () => {
    expect(loadConfig({}, '/srv/tachyon').adminForceEnable).toBe(false);
    expect(loadConfig({ ADMIN_FORCE_ENABLE: 'on' }, '/srv/tachyon').adminForceEnable).toBe(true);
    expect(() => loadConfig({ ADMIN_FORCE_ENABLE: 'maybe' }, '/srv/tachyon')).toThrow(/ADMIN_FORCE_ENABLE/);
  });
});

describe('accounts created while demo mode was on do not survive into a real deployment', () => {
  const real = { demo: false, adminUserName: ROOT[0], adminPassword: ROOT[1] };

  it('disables them and ends their sessions at a start with demo off; an administrator may enable one for good', async () => {
    // Made with the published DEMO\admin password.
    const a = await start();
    const demoAdmin = await a.login(...ADMIN);
    const created = await createAccount(a.app, demoAdmin, 'CORP\\svc-backup');
    const old = await tokenOf(a.app, ['CORP\\svc-backup', STRONG]);

    const log = logCapture();
    const off = await restart(real, log.logger);
    expectProblem(await signIn(off, ['CORP\\svc-backup', STRONG]), 401, 'invalid-credentials');
    expectProblem(await call(off, { method: 'GET', url: SESSION, token: old }), 401, 'unauthenticated');
    const [listed] = log.warnings('demo mode');
    expect(listed?.msg).toContain('CORP\\svc-backup');
    expect(listed?.accounts).toEqual(['CORP\\svc-backup']);

    const root = await tokenOf(off, ROOT);
    expect((await accountNamed(off, root, 'CORP\\svc-backup')).Enabled).toBe(false);
    const retirement = (await historyOf(off, root, created.Id)).find((entry) => entry.Action === 'Disabled');
    expect(retirement).toMatchObject({ ChangedBy: 'DEMO=off' });
    // The bootstrap admin, created by the operator's settings, is not one of them.
    expect((await accountNamed(off, root, ROOT[0])).Enabled).toBe(true);

    expect((await setEnabled(off, root, created.Id, true)).statusCode).toBe(200);
    expect((await historyOf(off, root, created.Id))[0]).toMatchObject({ Action: 'Enabled', ChangedBy: ROOT[0] });
    await tokenOf(off, ['CORP\\svc-backup', STRONG]);

    const later = await restart(real);
    await tokenOf(later, ['CORP\\svc-backup', STRONG]);
  });

  it('retires one again when it was enabled only while demo mode was on', async () => {
    const a = await start();
    const created = await createAccount(a.app, await a.login(...ADMIN), 'CORP\\svc-backup');
    await restart(real);
    // Demo mode back on: a demo visitor enables it with the published password.
    const on = await restart({ demo: true });
    const demoAdmin = await tokenOf(on, ADMIN);
    expect((await setEnabled(on, demoAdmin, created.Id, true)).statusCode).toBe(200);
    await tokenOf(on, ['CORP\\svc-backup', STRONG]);

    const off = await restart(real);
    expectProblem(await signIn(off, ['CORP\\svc-backup', STRONG]), 401, 'invalid-credentials');
  });

  it('leaves accounts created with demo mode off alone', async () => {
    const a = await start(real);
    const root = await a.login(...ROOT);
    await createAccount(a.app, root, 'CORP\\real.person');
    const on = await restart({ demo: true });
    await tokenOf(on, ['CORP\\real.person', STRONG]);
    const off = await restart(real);
    await tokenOf(off, ['CORP\\real.person', STRONG]);
  });

  it('leaves the ADMIN_USERNAME account usable even when it was first created in demo mode', async () => {
    const a = await start();
    await createAccount(a.app, await a.login(...ADMIN), ROOT[0]);
    // Its password and grants now come from the operator's settings.
    const off = await restart(real);
    await tokenOf(off, ROOT);
  });
});

describe('local accounts inside the directory’s domain (LDAP_DOMAIN)', () => {
  const directoryEnv = { LDAP_URL: 'ldap://127.0.0.1:1', LDAP_USER_BASE: 'dc=acme,dc=test', LDAP_DOMAIN: 'acme' };

  it('stops the start when ADMIN_USERNAME is inside LDAP_DOMAIN, naming both', () => {
    const env = { ...directoryEnv, ADMIN_USERNAME: 'acme\\admin', ADMIN_PASSWORD: STRONG };
    expect(() => loadConfig(env, '/srv/tachyon')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/srv/tachyon')).toThrow(
      /ADMIN_USERNAME \(acme\\admin\) is inside LDAP_DOMAIN \(ACME\)/,
    );
    for (const outside of ['LOCAL\\admin', 'admin']) {
      expect(loadConfig({ ...env, ADMIN_USERNAME: outside }, '/srv/tachyon').adminUserName).toBe(outside);
    }
  });

  it('lists them at start and marks them in the account list', async () => {
    // Made before the directory was connected: afterwards the API refuses names in its domain.
    const a = await start();
    const admin = await a.login(...ADMIN);
    const local = await createAccount(a.app, admin, 'ACME\\old.local');
    const log = logCapture();
    const directory = loadConfig(directoryEnv, '/srv/tachyon').directory;
    const next = await restart({ directory }, log.logger);
    // The demo's ACME people with accounts are local accounts in the directory's domain (ACME here) too.
    expect(log.warnings('LDAP_DOMAIN').map((line) => line.accounts)).toEqual([
      ['ACME\\alice.ng', 'ACME\\dana.okafor', 'ACME\\hana.sato', 'ACME\\old.local'],
    ]);
    const token = await tokenOf(next, ADMIN);
    expect((await accountNamed(next, token, 'ACME\\old.local')).InsideDirectoryDomain).toBe(true);
    expect((await accountNamed(next, token, ADMIN[0])).InsideDirectoryDomain).toBe(false);
    // Without a directory nothing is inside its domain.
    const without = await restart({ directory: null });
    const again = await tokenOf(without, ADMIN);
    expect((await accountNamed(without, again, local.UserName)).InsideDirectoryDomain).toBe(false);
  });
});

describe('a data folder from before accounts were marked as created in demo mode', () => {
  it('marks the accounts a demo account created, so the next start with demo off retires them', async () => {
    const handle = POSTGRES
      ? await createTestDatabase(testDatabaseServer() as string)
      : { url: null, drop: async () => undefined };
    const database = openDatabase(handle.url ? { databaseUrl: handle.url } : { sqliteFile: ':memory:' });
    try {
      const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
      const before = await migrator.migrateTo('005-hardening');
      expect(before.error).toBeUndefined();
      const created = async (userName: string, by: string) => {
        const { id } = await database.db
          .insertInto('principals')
          .values({ user_name: userName, user_key: userName.toLowerCase(), password_hash: '', enabled: 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await database.db
          .insertInto('account_history')
          .values({
            principal_id: id,
            user_name: userName,
            action: 'Created',
            changed_by: by,
            changed_at: '2026-01-01 00:00:00.000',
          })
          .execute();
      };
      await created('CORP\\svc-backup', 'DEMO\\admin');
      await created('CORP\\by-accounts-admin', 'demo\\Accounts.Admin');
      await created('CORP\\real.person', 'CORP\\root');
      await migrateToLatest(database);
      const marked = await database.db
        .selectFrom('principals')
        .select('user_name')
        .where('created_in_demo', '=', 1)
        .orderBy('user_name')
        .execute();
      expect(marked.map((row) => row.user_name)).toEqual(['CORP\\by-accounts-admin', 'CORP\\svc-backup']);
    } finally {
      await database.close();
      await handle.drop();
    }
  });
});
