import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Account, AccountHistoryList, AccountList, type AccountPermissions } from '../../shared/contract/index.ts';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { createTestApp, expectProblem, parseBody, type TestApp } from '../test/harness.ts';

/** Accounts that outlive the settings they were made under: each fault as it was seen, now refused. */
const LOGIN = '/api/Consumer/Authentication';
const ACCOUNTS = '/api/Admin/Accounts';
const ROOT = ['CORP\\root', 'violet harbour lantern 42'] as const;
const STRONG = 'quiet orchard telescope 7';
const ALL: AccountPermissions = { Security: ['Read', 'Write'], Accounts: ['Read', 'Write'] };

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

/** What the service logged at warn and above, as parsed lines. */
function logCapture() {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: { level: 'warn', stream }, lines };
}

/** The same service started again on the same database with other settings (a redeploy). */
async function restart(overrides: Partial<Config>, logger: ReturnType<typeof logCapture>['logger'] | false = false) {
  if (!t || !current) throw new Error('start first');
  await current.close();
  current = await buildApp({ config: { ...t.config, ...overrides }, database: t.database, clock: t.clock.now }, logger);
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
    const warning = log.lines.find((line) => line.level === 40 && line.msg.includes('ADMIN_USERNAME'));
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
