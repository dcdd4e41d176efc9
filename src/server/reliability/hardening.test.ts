import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryList, PushMessageUserList } from '../../shared/contract/index.ts';
import { openDatabase } from '../db/database.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  demoCreateInstruction,
  demoCreateRequest,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  restartApp,
  secondProcess,
  type TestApp,
} from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/** Each fault a security review found, sent as it was seen, and now refused. */
const LOGIN = '/api/Consumer/Authentication';
const SESSION = '/api/Consumer/Authentication/Session';
const PUSH_USERS = '/api/Consumer/PushMessageUsers';
const REQUESTS = '/api/Consumer/Authentication/AuthorizationRequests';
const POSTGRES = testDatabaseServer() !== null;

let t: TestApp;
const others: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of others.splice(0)) await app.close();
  await t?.close();
});

/** The same service started again on the same database (a restart with other settings). */
async function restart(overrides: Partial<TestApp['config']>): Promise<FastifyInstance> {
  await t.app.close();
  const app = await restartApp(t, overrides);
  others.push(app);
  return app;
}

const signIn = (app: FastifyInstance, [UserName, Password]: readonly [string, string], extra: InjectOptions = {}) =>
  app.inject({ method: 'POST', url: LOGIN, payload: { UserName, Password }, ...extra });

describe('demo accounts never work with demo mode off', () => {
  it('refuses their sign-in and ends their sessions after a restart with DEMO=off on the same data', async () => {
    t = await createTestApp();
    const adminToken = await t.login(...ADMIN);
    await t.addPrincipal('ACME\\real.admin', 'Real-admin-2026!', ['Read', 'Write']);

    const off = await restart({ demo: false });
    expectProblem(await signIn(off, ADMIN), 401, 'invalid-credentials');
    expectProblem(await signIn(off, OPERATOR), 401, 'invalid-credentials');
    const session = await off.inject({
      method: 'GET',
      url: SESSION,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expectProblem(session, 401, 'unauthenticated');
    // Real accounts are untouched.
    expect((await signIn(off, ['ACME\\real.admin', 'Real-admin-2026!'])).statusCode).toBe(200);
  });

  it('refuses them even when the data folder says they are enabled', async () => {
    t = await createTestApp();
    const off = await restart({ demo: false });
    await t.database.db.updateTable('principals').set({ enabled: 1 }).execute();
    expectProblem(await signIn(off, ADMIN), 401, 'invalid-credentials');
  });

  it('gives them back when demo mode is turned on again', async () => {
    t = await createTestApp();
    await restart({ demo: false });
    await (others.pop() as FastifyInstance).close();
    const on = await restartApp(t, { demo: true });
    others.push(on);
    expect((await signIn(on, ADMIN)).statusCode).toBe(200);
  });
});

describe('resetting the demo needs Security Write', () => {
  it('refuses a caller without Write, changing nothing, and lets a Write holder reset', async () => {
    t = await createTestApp();
    const admin = await t.login(...ADMIN);
    const users = async () =>
      parseBody(await t.call({ method: 'GET', url: PUSH_USERS, token: admin }), PushMessageUserList);
    const [first] = await users();
    await t.call({ method: 'PUT', url: PUSH_USERS, token: admin, payload: { Id: first?.Id, Status: 3 } });
    const before = await users();
    for (const account of [OPERATOR, AUDITOR]) {
      const token = await t.login(account[0], account[1]);
      const refused = expectProblem(await t.call({ method: 'POST', url: '/api/Demo/Reset', token }), 403, 'forbidden');
      expect(refused.detail).toContain("'Write' permission on 'Security'");
    }
    expect(await users()).toEqual(before);
    const helpdesk = await t.login(...HELPDESK);
    expect((await t.call({ method: 'POST', url: '/api/Demo/Reset', token: helpdesk })).statusCode).toBe(204);
    expect(await users()).not.toEqual(before);
  });
});

describe('demo creation: the real caller in the history, and a per-session limit', () => {
  it('records the caller, not the claimed device owner, as who created the request', async () => {
    t = await createTestApp();
    const operator = await t.login(...OPERATOR);
    const created = await demoCreateRequest(t, operator, { UserName: 'ACME\\the.ceo' });
    expect(created.UserName).toBe('ACME\\the.ceo');
    const admin = await t.login(...ADMIN);
    const history = parseBody(
      await t.call({
        method: 'GET',
        url: `/api/Consumer/History?entity=AuthorizationRequest&id=${created.Id}`,
        token: admin,
      }),
      HistoryList,
    );
    expect(history.map((entry) => entry.ChangedBy)).toEqual(['DEMO\\operator']);
  });

  it('limits device requests and instructions per session, not per person or address', async () => {
    t = await createTestApp({ demoCreationsPerMinute: 3 });
    const first = await t.login(...OPERATOR);
    for (let i = 0; i < 3; i += 1) await demoCreateRequest(t, first);
    const refused = await t.call({ method: 'POST', url: '/api/Demo/AuthorizationRequests', token: first, payload: {} });
    expectProblem(refused, 429, 'too-many-requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Instructions have their own count; another session its own budget.
    await demoCreateInstruction(t, first);
    const second = await t.login(...OPERATOR);
    await demoCreateRequest(t, second);
  });
});

describe('TRUST_PROXY: the client behind the proxy is who is throttled', () => {
  const throughProxy = (app: FastifyInstance, account: readonly [string, string], client: string) =>
    signIn(app, account, { remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });

  it('with a trusted proxy, an attacker behind it cannot lock out a colleague behind the same proxy', async () => {
    t = await createTestApp({ trustProxy: 1, loginFailuresPerUser: 3, loginFailuresPerAddress: 3 });
    for (let i = 0; i < 5; i += 1) await throughProxy(t.app, [HELPDESK[0], 'guess'], '203.0.113.9');
    expectProblem(await throughProxy(t.app, HELPDESK, '203.0.113.9'), 429, 'too-many-requests');
    expect((await throughProxy(t.app, HELPDESK, '198.51.100.7')).statusCode).toBe(200);
  });

  it('off by default: a forwarded address is not believed', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3, loginFailuresPerAddress: 1000 });
    for (let i = 0; i < 3; i += 1) await throughProxy(t.app, [HELPDESK[0], 'guess'], `203.0.113.${i}`);
    // Claiming another address changes nothing: the connection's address is the one counted.
    expectProblem(await throughProxy(t.app, HELPDESK, '198.51.100.7'), 429, 'too-many-requests');
  });
});

describe('throttles count IPv6 clients by /64, and are shared by processes on one PostgreSQL', () => {
  it('counts the addresses of one /64 together', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3, loginFailuresPerAddress: 1000 });
    for (let i = 1; i <= 3; i += 1) await signIn(t.app, [ADMIN[0], 'guess'], { remoteAddress: `2001:db8:0:7::${i}` });
    expectProblem(await signIn(t.app, ADMIN, { remoteAddress: '2001:db8:0:7::ffff' }), 429, 'too-many-requests');
    expect((await signIn(t.app, ADMIN, { remoteAddress: '2001:db8:0:8::1' })).statusCode).toBe(200);
  });

  it.skipIf(!POSTGRES)('shares one budget between two service processes on one PostgreSQL database', async () => {
    t = await createTestApp({ loginFailuresPerUser: 4, loginFailuresPerAddress: 1000 });
    const second = await secondProcess(t);
    others.push(second);
    const from = { remoteAddress: '203.0.113.9' };
    await signIn(t.app, [ADMIN[0], 'guess'], from);
    await signIn(second, [ADMIN[0], 'guess'], from);
    await signIn(t.app, [ADMIN[0], 'guess'], from);
    await signIn(second, [ADMIN[0], 'guess'], from);
    // Four failures between them: each process refuses, with the right password too.
    expectProblem(await signIn(t.app, ADMIN, from), 429, 'too-many-requests');
    expectProblem(await signIn(second, ADMIN, from), 429, 'too-many-requests');
  });
});

describe('answers that carry secrets are not stored', () => {
  it('sends Cache-Control: no-store with sign-in, the session, tokens and demo pushes, not with lists', async () => {
    t = await createTestApp();
    const login = await signIn(t.app, OPERATOR);
    expect(login.headers['cache-control']).toBe('no-store');
    const operator = login.json<{ Token: string }>().Token;
    expect((await t.call({ method: 'GET', url: SESSION, token: operator })).headers['cache-control']).toBe('no-store');
    expect((await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: operator })).headers['cache-control']).toBe(
      'no-store',
    );
    const instruction = await demoCreateInstruction(t, operator);
    const submitted = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/Instruction/Token',
      token: operator,
      payload: { Id: instruction.Id, Token: '000000' },
    });
    expect(submitted.headers['cache-control']).toBe('no-store');
    const admin = await t.login(...ADMIN);
    expect((await t.call({ method: 'GET', url: PUSH_USERS, token: admin })).headers['cache-control']).not.toContain(
      'no-store',
    );
  });
});

describe('token reissues are capped per instruction', () => {
  it('refuses a reissue past the cap, saying so', async () => {
    t = await createTestApp();
    const operator = await t.login(...OPERATOR);
    const instruction = await demoCreateInstruction(t, operator);
    const reissue = () =>
      t.call({ method: 'POST', url: `/api/Demo/Instructions/${instruction.Id}/Token`, token: operator });
    for (let i = 0; i < 4; i += 1) expect((await reissue()).statusCode).toBe(200);
    const refused = expectProblem(await reissue(), 409, 'token-reissue-limit');
    expect(refused.detail).toContain('5 tokens');
    expect(refused.detail).toContain('Create a new instruction');
  });
});

describe('the data folder is the service user’s alone', () => {
  it('creates the folder 0700 and the database files 0600', async () => {
    const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-perms-')), 'data');
    const handle = openDatabase({ sqliteFile: path.join(folder, 'tachyon.sqlite') });
    try {
      await handle.db.schema.createTable('probe').addColumn('id', 'integer').execute();
      await handle.db
        .insertInto('probe' as never)
        .values({ id: 1 } as never)
        .execute();
      expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
      const files = fs.readdirSync(folder);
      expect(files).toContain('tachyon.sqlite');
      for (const file of files) expect(fs.statSync(path.join(folder, file)).mode & 0o777, file).toBe(0o600);
    } finally {
      await handle.close();
      fs.rmSync(path.dirname(folder), { recursive: true, force: true });
    }
  });

  it('leaves the mode of an existing shared folder (DATA_DIR=/tmp) alone, still making the files 0600', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-shared-'));
    fs.chmodSync(folder, 0o1777);
    const handle = openDatabase({ sqliteFile: path.join(folder, 'tachyon.sqlite') });
    try {
      await handle.db.schema.createTable('probe').addColumn('id', 'integer').execute();
      expect(fs.statSync(folder).mode & 0o7777).toBe(0o1777);
      expect(fs.statSync(path.join(folder, 'tachyon.sqlite')).mode & 0o777).toBe(0o600);
    } finally {
      await handle.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('hidden characters in text fields', () => {
  const HIDDEN = ['\u202E', '\u2066', '\u200B', '\u0007', '\uFEFF'];

  it('refuses them in user names, e-mails and device fields, naming the field', async () => {
    t = await createTestApp();
    const operator = await t.login(...OPERATOR);
    for (const character of HIDDEN) {
      for (const field of ['UserName', 'UserEmail', 'DeviceType', 'Manufacturer', 'Model', 'OsVersion']) {
        const response = await t.call({
          method: 'POST',
          url: '/api/Demo/AuthorizationRequests',
          token: operator,
          payload: { [field]: `ACME\\eve${character}gpj.exe` },
        });
        const problem = expectProblem(response, 400, 'validation');
        expect(problem.errors?.map((error) => error.path)).toEqual([field]);
      }
      expectProblem(await signIn(t.app, [`DEMO\\ad${character}min`, ADMIN[1]]), 400, 'validation');
    }
  });

  it('refuses them in a decision comment, which keeps its line breaks', async () => {
    t = await createTestApp();
    const admin = await t.login(...ADMIN);
    const [request] = parseBody(
      await t.call({ method: 'GET', url: REQUESTS, token: admin }),
      (await import('../../shared/contract/index.ts')).AuthorizationRequestList,
    );
    const decide = (Comment: string) =>
      t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/AuthorizeDevice',
        token: admin,
        payload: { RequestId: request?.Id, RequestGuid: request?.RequestGuid, Authorized: false, Comment },
      });
    for (const character of HIDDEN) expectProblem(await decide(`ok${character}`), 400, 'validation');
    const decided = await decide('Called them.\nNot their phone.\tClosed.');
    expect(decided.statusCode, decided.body).toBe(200);
  });
});

describe('ended sessions are purged', () => {
  it('deletes revoked and expired sessions at start, keeping live ones', async () => {
    t = await createTestApp();
    const revoked = await t.login(...ADMIN);
    await t.call({ method: 'DELETE', url: SESSION, token: revoked });
    const idle = await t.login(...HELPDESK);
    t.clock.advanceMinutes(t.config.sessionIdleMinutes - 1);
    const live = await t.login(...AUDITOR);
    t.clock.advanceMinutes(2);
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(3);

    const restarted = await restart({});
    expect(await count()).toBe(1);
    const inject = (token: string) =>
      restarted.inject({ method: 'GET', url: SESSION, headers: { authorization: `Bearer ${token}` } });
    expect((await inject(live)).statusCode).toBe(200);
    expectProblem(await inject(idle), 401, 'unauthenticated');
    expectProblem(await inject(revoked), 401, 'unauthenticated');
  });
});
