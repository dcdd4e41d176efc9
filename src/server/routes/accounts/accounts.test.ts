import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Account, AccountHistoryList, AccountList, LoginResult } from '../../../shared/contract/index.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  expectProblem,
  HELPDESK,
  parseBody,
  restartApp,
  type TestApp,
} from '../../test/harness.ts';

const STRONG = 'violet harbour lantern 42';
const STRONGER = 'quiet orchard telescope 7';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

async function createAccount(token: string, userName: string, permissions = { Security: ['Read'], Accounts: [] }) {
  const response = await t.call({
    method: 'POST',
    url: '/api/Admin/Accounts',
    token,
    payload: { UserName: userName, Password: STRONG, Permissions: permissions },
  });
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, Account);
}

const sessionStatus = async (token: string) =>
  (await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token })).statusCode;

describe('Accounts permission', () => {
  it('DEMO\\admin has Accounts Read and Write, DEMO\\helpdesk Contain; the other demo accounts have none', async () => {
    const admin = await t.login(...ADMIN);
    const list = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
    const byName = new Map(list.map((account) => [account.UserName, account]));
    expect(byName.get('DEMO\\admin')?.Permissions).toEqual({
      Security: ['Read', 'Write'],
      Accounts: ['Read', 'Write'],
    });
    expect(byName.get('DEMO\\helpdesk')?.Permissions).toEqual({ Security: ['Read', 'Write'], Accounts: ['Contain'] });
    expect(byName.get('DEMO\\auditor')?.Permissions).toEqual({ Security: ['Read'], Accounts: [] });
    // The demo data's extra accounts, one of them disabled, so the page shows a team.
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(list.some((account) => !account.Enabled)).toBe(true);
    expect(byName.get('DEMO\\admin')).toMatchObject({ Source: 'Local', Enabled: true, PermissionsEditable: true });
    expect(byName.get('DEMO\\admin')?.LastSignInUtc).toBe(t.clock.stamp());
  });

  it('refuses every account endpoint without the permission it needs (403 naming Accounts)', async () => {
    // Contain (the helpdesk's) reaches only an account holding no Accounts permission: DEMO\admin's is account 1.
    const helpdesk = await t.login(...HELPDESK);
    for (const [method, url, payload] of [
      ['GET', '/api/Admin/Accounts', undefined],
      ['GET', '/api/Admin/Accounts/1', undefined],
      ['GET', '/api/Admin/Accounts/1/History', undefined],
      ['GET', '/api/Admin/Accounts/History', undefined],
      [
        'POST',
        '/api/Admin/Accounts',
        { UserName: 'X\\y', Password: STRONG, Permissions: { Security: ['Read'], Accounts: [] } },
      ],
      ['PUT', '/api/Admin/Accounts/1/Permissions', { Permissions: { Security: [], Accounts: [] } }],
      ['PUT', '/api/Admin/Accounts/1/Enabled', { Enabled: false }],
      ['POST', '/api/Admin/Accounts/1/Password', { Password: STRONG }],
      ['POST', '/api/Admin/Accounts/1/SignOut', undefined],
    ] as const) {
      const problem = expectProblem(await t.call({ method, url, token: helpdesk, payload }), 403, 'forbidden');
      expect(problem.entity).toBe('Accounts');
    }
  });

  it('Accounts Read lists but cannot change', async () => {
    const admin = await t.login(...ADMIN);
    const auditorId = await idOf(admin, AUDITOR[0]);
    await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${auditorId}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read'], Accounts: ['Read'] } },
    });
    const auditor = await t.login(...AUDITOR);
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: auditor })).statusCode).toBe(200);
    const problem = expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${auditorId}/SignOut`, token: auditor }),
      403,
      'forbidden',
    );
    expect(problem.permission).toBe('Write');
  });

  it('needs a session (401) and exists in every API version', async () => {
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Accounts' }), 401, 'unauthenticated');
    const admin = await t.login(...ADMIN);
    for (const version of ['3.0', '3.1', '3.2', '3.3', '4.0']) {
      const response = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin, version });
      expect(response.statusCode, version).toBe(200);
    }
  });
});

async function idOf(token: string, userName: string): Promise<number> {
  const list = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token }), AccountList);
  const account = list.find((item) => item.UserName === userName);
  if (!account) throw new Error(`no account ${userName}`);
  return account.Id;
}

describe('when an account was made', () => {
  it('is said for every account, the seeded ones too (the demo accounts, as the break-glass admin, are made at start)', async () => {
    const admin = await t.login(...ADMIN);
    const list = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
    expect(list.length).toBeGreaterThan(4);
    expect(list.filter((account) => account.CreatedUtc === null).map((account) => account.UserName)).toEqual([]);
  });
});

describe('creating a local account', () => {
  it('creates it with its permissions; the person signs in with them', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\kim.helpdesk', { Security: ['Read', 'Write'], Accounts: [] });
    expect(created).toMatchObject({
      UserName: 'CORP\\kim.helpdesk',
      Source: 'Local',
      Enabled: true,
      Permissions: { Security: ['Read', 'Write'], Accounts: [] },
      LastSignInUtc: null,
      CreatedUtc: t.clock.stamp(),
      ActiveSessions: 0,
    });
    const login = parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: 'corp\\KIM.helpdesk', Password: STRONG },
      }),
      LoginResult,
    );
    expect(login.Permissions).toEqual([{ Entity: 'Security', Permissions: ['Read', 'Write'] }]);
    const read = parseBody(
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${created.Id}`, token: admin }),
      Account,
    );
    expect(read.ActiveSessions).toBe(1);
  });

  it('applies the password policy: 12 to 128 characters, not a common password', async () => {
    const admin = await t.login(...ADMIN);
    const attempt = (Password: string) =>
      t.call({ method: 'POST', url: '/api/Admin/Accounts', token: admin, payload: { UserName: 'CORP\\x', Password } });
    expect(expectProblem(await attempt('elevenchars'), 400, 'validation').errors?.[0]?.path).toBe('Password');
    expectProblem(await attempt('x'.repeat(129)), 400, 'validation');
    const common = expectProblem(await attempt('qwerty123456'), 400, 'validation');
    expect(common.detail).toMatch(/common/);
    // No composition rules: lower-case words only are fine.
    expect((await attempt('lower case words only')).statusCode).toBe(201);
  });

  it('refuses a taken name (409, whatever its case), a malformed name, and unknown permissions (400)', async () => {
    const admin = await t.login(...ADMIN);
    const taken = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: 'demo\\HELPDESK', Password: STRONG },
    });
    expectProblem(taken, 409, 'account-exists');
    for (const UserName of ['nodomain', 'A\\b\\c', '\\x', ' ', 'X\\y\u202e']) {
      const response = await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: admin,
        payload: { UserName, Password: STRONG },
      });
      expectProblem(response, 400, 'validation');
    }
    const badPermission = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: 'X\\y', Password: STRONG, Permissions: { Security: ['Delete'], Accounts: [] } },
    });
    expectProblem(badPermission, 400, 'validation');
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: admin,
        payload: '{',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'malformed-request',
    );
  });
});

describe('changing an account', () => {
  it('changes permissions, which the person’s open session gets at once', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\sam');
    const sam = await t.login('CORP\\sam', STRONG);
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: sam })).statusCode).toBe(403);
    const changed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${created.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: [], Accounts: ['Read'] } },
    });
    expect(parseBody(changed, Account).Permissions).toEqual({ Security: [], Accounts: ['Read'] });
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: sam })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: sam })).statusCode).toBe(403);
  });

  it('disabling ends the account’s sessions and refuses its sign-in; enabling lets it back', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\dee');
    const dee = await t.login('CORP\\dee', STRONG);
    const disabled = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${created.Id}/Enabled`,
      token: admin,
      payload: { Enabled: false },
    });
    expect(parseBody(disabled, Account)).toMatchObject({ Enabled: false, ActiveSessions: 0 });
    expect(await sessionStatus(dee)).toBe(401);
    const refused = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: 'CORP\\dee', Password: STRONG },
    });
    expectProblem(refused, 401, 'invalid-credentials');
    await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${created.Id}/Enabled`,
      token: admin,
      payload: { Enabled: true },
    });
    await t.login('CORP\\dee', STRONG);
  });

  it('resetting a password ends the sessions; the new password works, the old does not', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\rae');
    const rae = await t.login('CORP\\rae', STRONG);
    const weak = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${created.Id}/Password`,
      token: admin,
      payload: { Password: 'password1234' },
    });
    expectProblem(weak, 400, 'validation');
    expect(await sessionStatus(rae)).toBe(200);
    const reset = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${created.Id}/Password`,
      token: admin,
      payload: { Password: STRONGER },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    expect(await sessionStatus(rae)).toBe(401);
    await t.login('CORP\\rae', STRONGER);
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/Consumer/Authentication',
          payload: { UserName: 'CORP\\rae', Password: STRONG },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('signs an account out everywhere: all its sessions end, it can sign in again', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\lou');
    const first = await t.login('CORP\\lou', STRONG);
    const second = await t.login('CORP\\lou', STRONG);
    const response = await t.call({ method: 'POST', url: `/api/Admin/Accounts/${created.Id}/SignOut`, token: admin });
    expect(parseBody(response, Account).ActiveSessions).toBe(0);
    expect(await sessionStatus(first)).toBe(401);
    expect(await sessionStatus(second)).toBe(401);
    expect(await sessionStatus(admin)).toBe(200);
    await t.login('CORP\\lou', STRONG);
  });

  it('will not let an administrator disable themselves or drop their own Accounts Write', async () => {
    const admin = await t.login(...ADMIN);
    const adminId = await idOf(admin, ADMIN[0]);
    expectProblem(
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${adminId}/Enabled`,
        token: admin,
        payload: { Enabled: false },
      }),
      409,
      'forbidden',
    );
    expectProblem(
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${adminId}/Permissions`,
        token: admin,
        payload: { Permissions: { Security: ['Read'], Accounts: ['Read'] } },
      }),
      409,
      'forbidden',
    );
  });

  it('answers 404 for an unknown account and 400 for a malformed id or body', async () => {
    const admin = await t.login(...ADMIN);
    for (const [method, url, payload] of [
      ['GET', '/api/Admin/Accounts/9999', undefined],
      ['GET', '/api/Admin/Accounts/9999/History', undefined],
      ['PUT', '/api/Admin/Accounts/9999/Permissions', { Permissions: { Security: [], Accounts: [] } }],
      ['PUT', '/api/Admin/Accounts/9999/Enabled', { Enabled: false }],
      ['POST', '/api/Admin/Accounts/9999/Password', { Password: STRONG }],
      ['POST', '/api/Admin/Accounts/9999/SignOut', undefined],
    ] as const) {
      expectProblem(await t.call({ method, url, token: admin, payload }), 404, 'not-found');
    }
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Accounts/abc', token: admin }), 400, 'validation');
    expectProblem(
      await t.call({ method: 'PUT', url: '/api/Admin/Accounts/1/Enabled', token: admin, payload: { Enabled: 'no' } }),
      400,
      'validation',
    );
    expectProblem(
      await t.call({ method: 'PUT', url: '/api/Admin/Accounts/1/Permissions', token: admin, payload: {} }),
      400,
      'validation',
    );
  });
});

describe('a person’s own account', () => {
  it('changes their password with the old one: other sessions end, this one goes on', async () => {
    const admin = await t.login(...ADMIN);
    await createAccount(admin, 'CORP\\ana');
    const here = await t.login('CORP\\ana', STRONG);
    const elsewhere = await t.login('CORP\\ana', STRONG);
    const change = (OldPassword: string, NewPassword: string) =>
      t.call({
        method: 'POST',
        url: '/api/Admin/Accounts/Me/Password',
        token: here,
        payload: { OldPassword, NewPassword },
      });
    expectProblem(await change('not my password', STRONGER), 422, 'wrong-password');
    expectProblem(await change(STRONG, 'short'), 400, 'validation');
    expectProblem(await change(STRONG, 'qwertyuiop123'), 400, 'validation');
    expectProblem(await change(STRONG, STRONG), 400, 'validation');
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts/Me/Password',
        token: here,
        payload: { NewPassword: STRONGER },
      }),
      400,
      'validation',
    );
    expect(await sessionStatus(elsewhere)).toBe(200);
    const changed = await change(STRONG, STRONGER);
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await sessionStatus(here)).toBe(200);
    expect(await sessionStatus(elsewhere)).toBe(401);
    await t.login('CORP\\ana', STRONGER);
  });

  it('needs no Accounts permission to change one’s own password or sign out everywhere, only a session', async () => {
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts/Me/Password',
        payload: { OldPassword: 'a', NewPassword: STRONG },
      }),
      401,
      'unauthenticated',
    );
    const first = await t.login(...HELPDESK);
    const second = await t.login(...HELPDESK);
    const admin = await t.login(...ADMIN);
    const out = await t.call({ method: 'POST', url: '/api/Admin/Accounts/Me/SignOut', token: first });
    expect(out.statusCode, out.body).toBe(204);
    expect(await sessionStatus(first)).toBe(401);
    expect(await sessionStatus(second)).toBe(401);
    expect(await sessionStatus(admin)).toBe(200);
  });
});

describe('account history', () => {
  it('records sign-ins and failed sign-ins: the name as typed, address, consumer, outcome; never the password', async () => {
    const headers = { 'x-tachyon-consumer': 'Explorer' };
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      headers,
      payload: { UserName: 'demo\\HELPDESK', Password: 'Wrong#password-1' },
    });
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      headers,
      payload: { UserName: 'NOBODY\\here', Password: 'Secret#guess-2' },
    });
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      headers,
      payload: { UserName: 'demo\\helpdesk', Password: HELPDESK[1] },
    });
    const admin = await t.login(...ADMIN);
    const response = await t.call({ method: 'GET', url: '/api/Admin/Accounts/History', token: admin });
    const history = parseBody(response, AccountHistoryList);
    const signIns = history.filter((entry) => entry.Action === 'SignedIn' || entry.Action === 'SignInFailed');
    expect(
      signIns.slice(0, 4).map((entry) => [entry.UserName, entry.Action, entry.Consumer, entry.ClientAddress]),
    ).toEqual([
      ['DEMO\\admin', 'SignedIn', null, '127.0.0.1'],
      ['demo\\helpdesk', 'SignedIn', 'Explorer', '127.0.0.1'],
      ['NOBODY\\here', 'SignInFailed', 'Explorer', '127.0.0.1'],
      ['demo\\HELPDESK', 'SignInFailed', 'Explorer', '127.0.0.1'],
    ]);
    expect(signIns[2]?.AccountId).toBeNull();
    const helpdeskId = await idOf(admin, HELPDESK[0]);
    expect(signIns[3]?.AccountId).toBe(helpdeskId);
    expect(response.body).not.toMatch(/Wrong#password|Secret#guess|Helpdesk#2026|scrypt/);
    const own = parseBody(
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${helpdeskId}/History`, token: admin }),
      AccountHistoryList,
    );
    expect(own.map((entry) => entry.Action)).toEqual(['SignedIn', 'SignInFailed']);
  });

  it('records every change with who made it and what changed, never a password', async () => {
    const admin = await t.login(...ADMIN);
    const created = await createAccount(admin, 'CORP\\max', { Security: ['Read'], Accounts: [] });
    const url = `/api/Admin/Accounts/${created.Id}`;
    await t.call({
      method: 'PUT',
      url: `${url}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
    });
    await t.call({ method: 'PUT', url: `${url}/Enabled`, token: admin, payload: { Enabled: false } });
    await t.call({ method: 'PUT', url: `${url}/Enabled`, token: admin, payload: { Enabled: true } });
    await t.call({ method: 'POST', url: `${url}/Password`, token: admin, payload: { Password: STRONGER } });
    await t.call({ method: 'POST', url: `${url}/SignOut`, token: admin });
    const response = await t.call({ method: 'GET', url: `${url}/History`, token: admin });
    const history = parseBody(response, AccountHistoryList);
    expect(history.map((entry) => [entry.Action, entry.ChangedBy, entry.Detail])).toEqual([
      ['SignedOutEverywhere', 'DEMO\\admin', null],
      ['PasswordReset', 'DEMO\\admin', 'all sessions ended'],
      ['Enabled', 'DEMO\\admin', null],
      ['Disabled', 'DEMO\\admin', null],
      ['PermissionsChanged', 'DEMO\\admin', 'Security: Read+Write, Accounts: none'],
      ['Created', 'DEMO\\admin', 'Security: Read, Accounts: none'],
    ]);
    expect(history.every((entry) => entry.ChangedTimestampUtc === t.clock.stamp())).toBe(true);
    expect(response.body).not.toContain(STRONG);
    expect(response.body).not.toContain(STRONGER);
  });
});

describe('ADMIN_PASSWORD', () => {
  it('follows the password policy: a weak one stops the start-up with a clear message', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'CORP\\root', ADMIN_PASSWORD: 'Root#2026' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_USERNAME: 'CORP\\root', ADMIN_PASSWORD: 'password1234' })).toThrow(
      /ADMIN_PASSWORD is a commonly used password/,
    );
    expect(() => loadConfig({ ADMIN_USERNAME: 'CORP\\root', ADMIN_PASSWORD: 'short' })).toThrow(
      /ADMIN_PASSWORD must be at least 12 characters/,
    );
    expect(loadConfig({ ADMIN_USERNAME: 'CORP\\root', ADMIN_PASSWORD: STRONG }).adminPassword).toBe(STRONG);
  });

  it('gives the bootstrap admin Security and Accounts; changing it ends that account’s sessions', async () => {
    await t.close();
    t = await createTestApp({ demo: false, adminUserName: 'CORP\\root', adminPassword: STRONG });
    const before = parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: 'CORP\\root', Password: STRONG },
      }),
      LoginResult,
    );
    expect(before.Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Read', 'Write'] },
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
    ]);
    // The same database started again with the same password: the session survives.
    const same = await restartApp(t);
    expect(
      (
        await same.inject({
          method: 'GET',
          url: '/api/Consumer/Authentication/Session',
          headers: { authorization: `Bearer ${before.Token}` },
        })
      ).statusCode,
    ).toBe(200);
    await same.close();
    // Started with a new password: the old sessions end, the new password signs in.
    const next = await restartApp(t, { adminPassword: STRONGER });
    const session = await next.inject({
      method: 'GET',
      url: '/api/Consumer/Authentication/Session',
      headers: { authorization: `Bearer ${before.Token}` },
    });
    expect(session.statusCode).toBe(401);
    const login = await next.inject({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: 'CORP\\root', Password: STRONGER },
    });
    expect(login.statusCode).toBe(200);
    await next.close();
  });
});

describe('with a directory configured but unreachable', () => {
  const directory = {
    urls: ['ldap://127.0.0.1:1'],
    startTls: false,
    ca: null,
    caFile: null,
    bindDn: null,
    bindPassword: null,
    userBase: 'dc=acme,dc=test',
    userFilter: '(uid={user})',
    domain: 'ACME',
    groupSecurityRead: null,
    groupSecurityWrite: null,
    groupAccountsContain: null,
    timeoutMs: 2000,
    emailAttribute: 'mail',
  };

  it('answers 503 directory-unavailable for directory names, never 401, and records it', async () => {
    await t.close();
    t = await createTestApp({ directory });
    for (const UserName of ['ACME\\jo', 'acme\\jo', 'jo']) {
      const response = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName, Password: 'any password at all' },
      });
      expectProblem(response, 503, 'directory-unavailable');
      expect(response.headers['retry-after']).toBeDefined();
    }
    // Not counted as failures: a correct password is not locked out by an outage.
    for (let i = 0; i < 8; i++) {
      const response = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: 'ACME\\jo', Password: 'x' },
      });
      expect(response.statusCode).toBe(503);
    }
    const admin = await t.login(...ADMIN);
    const history = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts/History', token: admin }),
      AccountHistoryList,
    );
    expect(history.filter((entry) => entry.Action === 'DirectoryUnavailable').length).toBe(11);
  });

  it('keeps local accounts working and refuses another domain without asking the directory (401, not 503)', async () => {
    await t.close();
    t = await createTestApp({ directory });
    await t.login(...ADMIN);
    const other = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: 'OTHER\\jo', Password: 'any password at all' },
    });
    expectProblem(other, 401, 'invalid-credentials');
  });

  it('refuses a local account in the directory’s domain (the directory owns those names)', async () => {
    await t.close();
    t = await createTestApp({ directory });
    const admin = await t.login(...ADMIN);
    const response = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: 'ACME\\jo', Password: STRONG },
    });
    expect(expectProblem(response, 400, 'validation').detail).toMatch(/belong to the directory/);
  });
});
