import { describe, expect, it } from 'vitest';
import { Account, AccountHistoryList, CreatedAccount, RotatedSecret } from '../../../shared/contract/index.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import {
  ADMIN,
  AUDITOR,
  errorPaths,
  expectProblem,
  HELPDESK,
  parseBody,
  restartApp,
  useTestApp,
} from '../../test/harness.ts';

const STRONG = 'violet harbour lantern 42';
const SECRET = /^tcs_[a-z2-7]{32}$/;
/** What a browser adds to every request to a trustworthy origin, and a page cannot take away. */
const FROM_A_BROWSER = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };

describe('API accounts', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({ options: { auditSink: lines }, signIn: { admin: ADMIN } });

  const create = async (UserName: string, Security: string[] = ['Read', 'Write']) => {
    const response = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: tokens.admin,
      payload: { UserName, Kind: 'Api', Permissions: { Security, Accounts: [] } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return parseBody(response, CreatedAccount);
  };
  const signIn = (UserName: string, Password: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: '/api/Consumer/Authentication', payload: { UserName, Password }, headers });
  const history = async (id: number) =>
    parseBody(
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${id}/History`, token: tokens.admin }),
      AccountHistoryList,
    );
  const account = async (id: number) =>
    parseBody(await t.call({ method: 'GET', url: `/api/Admin/Accounts/${id}`, token: tokens.admin }), Account);
  const rotate = (id: number, token = tokens.admin) =>
    t.call({ method: 'POST', url: `/api/Admin/Accounts/${id}/Secret`, token });
  const storedHash = async (id: number) =>
    (
      await t.database.db
        .selectFrom('principals')
        .select('password_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).password_hash;

  it('is created with a generated secret, answered once and stored hashed; people stay "Person"', async () => {
    lines.clear();
    const created = await create('SVC\\ci-script', ['Read']);
    expect(created).toMatchObject({
      UserName: 'SVC\\ci-script',
      Kind: 'Api',
      Source: 'Local',
      Enabled: true,
      Permissions: { Security: ['Read'], Accounts: [] },
      LastUsedUtc: null,
    });
    expect(created.Secret).toMatch(SECRET);
    const secret = created.Secret as string;
    // Stored as a password is: a salted memory-hard hash, never the secret itself.
    const hash = await storedHash(created.Id);
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain(secret.slice(4));
    // Read back, it has no secret.
    const read = (
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${created.Id}`, token: tokens.admin })
    ).json();
    expect(read).not.toHaveProperty('Secret');
    expect(read.Kind).toBe('Api');
    const admin = (await t.call({ method: 'GET', url: '/api/Admin/Accounts/1', token: tokens.admin })).json();
    expect(admin.Kind).toBe('Person');

    const audited = lines.of('api-account-created');
    expect(audited).toHaveLength(1);
    expect(audited[0]?.event.outcome).toBe('success');
    expect(audited[0]?.tachyon?.entity).toEqual({ type: 'Account', id: created.Id });
    expect(audited[0]?.user?.name).toBe(ADMIN[0]);
    expect(lines.lines.join('')).not.toContain(secret);
    expect(lines.of('account-created')).toHaveLength(0);
    expect((await history(created.Id))[0]).toMatchObject({
      Action: 'ApiAccountCreated',
      ChangedBy: ADMIN[0],
      Detail: 'Security: Read, Accounts: none',
    });
  });

  it('signs in with its secret like a password: audited with its kind, in its history, its last use shown', async () => {
    const created = await create('SVC\\reporting');
    lines.clear();
    t.clock.advanceMinutes(1);
    const response = await signIn('SVC\\reporting', created.Secret as string, { 'x-tachyon-consumer': 'NightlyJob' });
    expect(response.statusCode, response.body).toBe(200);
    const [event] = lines.of('sign-in');
    expect(event?.event.outcome).toBe('success');
    expect(event?.tachyon?.details).toEqual({ accountKind: 'Api' });
    expect((await history(created.Id))[0]).toMatchObject({
      Action: 'SignedIn',
      Detail: 'API account',
      Consumer: 'NightlyJob',
    });
    expect((await account(created.Id)).LastUsedUtc).toBe(t.clock.stamp());

    // Its later calls move its last use on, not only its sign-ins.
    const token = response.json().Token as string;
    t.clock.advanceMinutes(5);
    expect((await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token })).statusCode).toBe(200);
    expect((await account(created.Id)).LastUsedUtc).toBe(t.clock.stamp());

    // A person's sign-in carries their kind too.
    lines.clear();
    await signIn(...HELPDESK);
    expect(lines.of('sign-in')[0]?.tachyon?.details).toEqual({ accountKind: 'Person' });
  });

  it('refuses a password given for an API account, and creates nothing', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: tokens.admin,
      payload: { UserName: 'SVC\\chosen', Kind: 'Api', Password: STRONG, Permissions: { Security: [], Accounts: [] } },
    });
    const problem = expectProblem(response, 400, 'validation');
    expect(errorPaths(problem)).toEqual(['Password']);
    expect(problem.errors?.[0]?.message).toMatch(/generated by the service/);
    expectProblem(await signIn('SVC\\chosen', STRONG), 401, 'invalid-credentials');
    // The name is still free.
    await create('SVC\\chosen');
  });

  it('refuses Accounts permissions for an API account, at creation and at every change', async () => {
    for (const Accounts of [['Read'], ['Write'], ['Read', 'Write']]) {
      const problem = expectProblem(
        await t.call({
          method: 'POST',
          url: '/api/Admin/Accounts',
          token: tokens.admin,
          payload: { UserName: 'SVC\\grabby', Kind: 'Api', Permissions: { Security: ['Read'], Accounts } },
        }),
        400,
        'validation',
      );
      expect(errorPaths(problem)).toEqual(['Permissions.Accounts']);
      expect(problem.errors?.[0]?.message).toBe('an API account can never hold Accounts permissions');
    }
    const created = await create('SVC\\grabby', ['Read']);
    lines.clear();
    const change = (Permissions: { Security: string[]; Accounts: string[] }) =>
      t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${created.Id}/Permissions`,
        token: tokens.admin,
        payload: { Permissions },
      });
    const problem = expectProblem(await change({ Security: ['Read'], Accounts: ['Read'] }), 400, 'validation');
    expect(errorPaths(problem)).toEqual(['Permissions.Accounts']);
    expect(problem.detail).toMatch(/never hold Accounts permissions/);
    expect((await account(created.Id)).Permissions).toEqual({ Security: ['Read'], Accounts: [] });
    expect(lines.of('account-changed')[0]?.event.outcome).toBe('failure');
    expect((await history(created.Id)).map((entry) => entry.Action)).not.toContain('PermissionsChanged');
    // Security permissions change as anyone's do.
    const changed = await change({ Security: ['Read', 'Write'], Accounts: [] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(parseBody(changed, Account).Permissions.Security).toEqual(['Read', 'Write']);
  });

  it('rotates its secret: the new one answered once, the old one refused, its sessions ended', async () => {
    const created = await create('SVC\\rotating');
    const old = created.Secret as string;
    const session = (await signIn('SVC\\rotating', old)).json().Token as string;
    const basic = `Basic ${Buffer.from(`SVC\\rotating:${old}`).toString('base64')}`;
    expect(
      (await t.call({ method: 'GET', url: '/Consumer/PushMessageUsers', headers: { authorization: basic } }))
        .statusCode,
    ).toBe(200);
    lines.clear();

    const response = await rotate(created.Id);
    expect(response.statusCode, response.body).toBe(200);
    const rotated = parseBody(response, RotatedSecret);
    expect(rotated).toMatchObject({ Id: created.Id, Kind: 'Api', ActiveSessions: 0 });
    expect(rotated.Secret).toMatch(SECRET);
    expect(rotated.Secret).not.toBe(old);

    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: session }),
      401,
      'unauthenticated',
    );
    expect(
      (await t.call({ method: 'GET', url: '/Consumer/PushMessageUsers', headers: { authorization: basic } }))
        .statusCode,
    ).toBe(401);
    expectProblem(await signIn('SVC\\rotating', old), 401, 'invalid-credentials');
    expect((await signIn('SVC\\rotating', rotated.Secret)).statusCode).toBe(200);

    const [event] = lines.of('api-account-secret-rotated');
    expect(event?.event.outcome).toBe('success');
    expect(event?.tachyon?.entity).toEqual({ type: 'Account', id: created.Id });
    expect(lines.lines.join('')).not.toContain(rotated.Secret);
    expect((await history(created.Id)).find((entry) => entry.Action === 'SecretRotated')).toMatchObject({
      ChangedBy: ADMIN[0],
      Detail: 'all sessions ended',
    });
    const again = (
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${created.Id}`, token: tokens.admin })
    ).json();
    expect(again).not.toHaveProperty('Secret');
  });

  it("refuses to rotate an unknown account (404) and a person's account (409), changing nothing", async () => {
    expectProblem(await rotate(987654), 404, 'not-found');
    lines.clear();
    const problem = expectProblem(await rotate(1), 409, 'not-api-account');
    expect(problem.detail).toMatch(/person's account/);
    expect(lines.of('api-account-secret-rotated')[0]?.event).toMatchObject({
      outcome: 'failure',
      reason: 'not-api-account',
    });
    // DEMO\admin's password and session are untouched.
    expect((await signIn(...ADMIN)).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: tokens.admin })).statusCode).toBe(200);
    expect((await history(1)).map((entry) => entry.Action)).not.toContain('SecretRotated');
  });

  it('needs Accounts Write to create an API account or rotate its secret', async () => {
    const created = await create('SVC\\guarded');
    const helpdesk = await t.login(...HELPDESK);
    const refused = expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: helpdesk,
        payload: { UserName: 'SVC\\sneaky', Kind: 'Api', Permissions: { Security: ['Write'], Accounts: [] } },
      }),
      403,
      'forbidden',
    );
    expect(refused).toMatchObject({ entity: 'Accounts', permission: 'Write' });
    expect(expectProblem(await rotate(created.Id, helpdesk), 403, 'forbidden').entity).toBe('Accounts');
    // Accounts Read is not enough either.
    await t.call({
      method: 'PUT',
      url: '/api/Admin/Accounts/3/Permissions',
      token: tokens.admin,
      payload: { Permissions: { Security: ['Read'], Accounts: ['Read'] } },
    });
    const auditor = await t.login(...AUDITOR);
    expect(expectProblem(await rotate(created.Id, auditor), 403, 'forbidden').permission).toBe('Write');
    expect((await signIn('SVC\\guarded', created.Secret as string)).statusCode).toBe(200);
    expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${created.Id}/Secret` }),
      401,
      'unauthenticated',
    );
  });

  it('takes no chosen password: neither a reset by an administrator nor a change of its own', async () => {
    const created = await create('SVC\\fixed');
    expectProblem(
      await t.call({
        method: 'POST',
        url: `/api/Admin/Accounts/${created.Id}/Password`,
        token: tokens.admin,
        payload: { Password: STRONG },
      }),
      409,
      'api-account',
    );
    const own = (await signIn('SVC\\fixed', created.Secret as string)).json().Token as string;
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts/Me/Password',
        token: own,
        payload: { OldPassword: created.Secret, NewPassword: STRONG },
      }),
      409,
      'api-account',
    );
    expect((await signIn('SVC\\fixed', created.Secret as string)).statusCode).toBe(200);
    expectProblem(await signIn('SVC\\fixed', STRONG), 401, 'invalid-credentials');
  });
});

describe('an API account named as ADMIN_USERNAME', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN } });

  it("becomes a person's account, since the break-glass admin holds Accounts Write", async () => {
    const created = parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: tokens.admin,
        payload: { UserName: 'SVC\\root', Kind: 'Api', Permissions: { Security: [], Accounts: [] } },
      }),
      CreatedAccount,
    );
    const restarted = await restartApp(t, { adminUserName: 'SVC\\root', adminPassword: STRONG });
    try {
      const read = await restarted.inject({
        method: 'GET',
        url: `/api/Admin/Accounts/${created.Id}`,
        headers: { authorization: `Bearer ${tokens.admin}` },
      });
      expect(read.json()).toMatchObject({ Kind: 'Person', Permissions: { Accounts: ['Read', 'Write'] } });
    } finally {
      await restarted.close();
    }
  });
});

describe('an API account at the dashboard (the attacker holds its secret and a browser)', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({ options: { auditSink: lines }, signIn: { admin: ADMIN } });
  let secret = '';
  let id = 0;
  const signIn = (Password: string, headers: Record<string, string>) =>
    t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: 'SVC\\deploy', Password },
      headers,
    });
  const make = async () => {
    const created = parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: tokens.admin,
        payload: { UserName: 'SVC\\deploy', Kind: 'Api', Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
      }),
      CreatedAccount,
    );
    secret = created.Secret as string;
    id = created.Id;
  };
  const sessionsOf = async () =>
    (await t.database.db.selectFrom('sessions').select('token_hash').where('principal_id', '=', id).execute()).length;

  it("refuses the dashboard's sign-in (a browser's request), opens no session, and records why", async () => {
    await make();
    lines.clear();
    const origin = 'http://localhost';
    for (const headers of [
      FROM_A_BROWSER,
      { origin },
      { ...FROM_A_BROWSER, origin, 'x-tachyon-consumer': 'Tachyon Admin' },
    ]) {
      const problem = expectProblem(await signIn(secret, headers), 403, 'api-account-in-browser');
      expect(problem.detail).toBe(
        'SVC\\deploy is an API account, for scripts and the SDK: it cannot sign in to the dashboard. Sign in with your own account.',
      );
      expect(problem).not.toHaveProperty('Token');
    }
    expect(await sessionsOf()).toBe(0);
    const failures = lines.of('sign-in');
    expect(failures).toHaveLength(3);
    for (const failure of failures) {
      expect(failure.event).toMatchObject({ outcome: 'failure', reason: 'api-account-in-browser' });
      expect(failure.tachyon?.details).toEqual({ accountKind: 'Api' });
    }
    const entries = parseBody(
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${id}/History`, token: tokens.admin }),
      AccountHistoryList,
    );
    expect(entries[0]).toMatchObject({ Action: 'SignInFailed', Detail: expect.stringMatching(/refused in a browser/) });
    // A wrong secret in a browser tells nothing more than anywhere else.
    expectProblem(await signIn('tcs_wrong', FROM_A_BROWSER), 401, 'invalid-credentials');
  });

  it('refuses its token in a browser, and its Basic credentials there, even when a script signed in', async () => {
    await make();
    const token = (await signIn(secret, {})).json().Token as string;
    expect((await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token })).statusCode).toBe(200);
    // The token pasted into the dashboard: every page's first call is refused.
    for (const url of ['/api/Consumer/Authentication/Session', '/api/Consumer/PushMessageUsers']) {
      expectProblem(
        await t.call({ method: 'GET', url, token, headers: FROM_A_BROWSER }),
        403,
        'api-account-in-browser',
      );
    }
    const basic = `Basic ${Buffer.from(`SVC\\deploy:${secret}`).toString('base64')}`;
    expectProblem(
      await t.call({
        method: 'GET',
        url: '/api/Consumer/PushMessageUsers',
        headers: { authorization: basic, ...FROM_A_BROWSER },
      }),
      403,
      'api-account-in-browser',
    );
    // The same calls from a script still work.
    expect(
      (await t.call({ method: 'GET', url: '/Consumer/PushMessageUsers', headers: { authorization: basic } }))
        .statusCode,
    ).toBe(200);
    // A person in a browser is untouched.
    const admin = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
      headers: FROM_A_BROWSER,
    });
    expect(admin.statusCode).toBe(200);
  });
});
