// Directory sign-in against a real OpenLDAP server (Debian's slapd): run by `npm run test:ldap`, which installs slapd
// when it is missing. Not part of `vitest run`: it needs that server.
import { Client } from 'ldapts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Account,
  AccountHistoryList,
  AccountList,
  LoginResult,
  RecoveryCodes,
} from '../../../../shared/contract/index.ts';
import { buildApp } from '../../../app.ts';
import { ADMIN, createTestApp, expectProblem, parseBody, type TestApp } from '../../../test/harness.ts';
import { logCapture } from '../../../test/log-capture.ts';
import {
  ADMIN_DN,
  ADMIN_PASSWORD,
  GROUP_HELPDESK,
  GROUP_READ,
  GROUP_WRITE,
  OpenLdap,
  PEOPLE,
  SEARCH_DN,
  SEARCH_PASSWORD,
  USER_BASE,
} from '../../../test/openldap.ts';
import { Directory } from './directory.ts';
import type { DirectoryConfig } from './directory-config.ts';

let ldap: OpenLdap;
let t: TestApp | null = null;

beforeAll(async () => {
  ldap = await OpenLdap.create();
}, 60_000);
afterAll(async () => {
  await ldap?.remove();
});
afterEach(async () => {
  await t?.close();
  t = null;
});

const directoryConfig = (overrides: Partial<DirectoryConfig> = {}): DirectoryConfig => ({
  urls: [ldap.url],
  startTls: false,
  ca: null,
  caFile: null,
  bindDn: SEARCH_DN,
  bindPassword: SEARCH_PASSWORD,
  userBase: USER_BASE,
  userFilter: '(uid={user})',
  domain: 'ACME',
  groupSecurityRead: GROUP_READ,
  groupSecurityWrite: GROUP_WRITE,
  groupAccountsContain: null,
  timeoutMs: 3000,
  emailAttribute: 'mail',
  ...overrides,
});

async function app(overrides: Partial<DirectoryConfig> = {}): Promise<TestApp> {
  t = await createTestApp({ directory: directoryConfig(overrides) });
  return t;
}

const signIn = (app: TestApp, UserName: string, Password: string) =>
  app.call({ method: 'POST', url: '/api/Consumer/Authentication', payload: { UserName, Password } });

describe('directory sign-in against OpenLDAP', () => {
  it('a member of LDAP_GROUP_ACCOUNTS_CONTAIN (here the nested helpdesk team) signs in with Contain on Accounts; others do not', async () => {
    const name = `ACME\\${PEOPLE.writer.uid}`;
    const contained = await app({ groupAccountsContain: GROUP_HELPDESK });
    const login = parseBody(await signIn(contained, name, PEOPLE.writer.password), LoginResult);
    expect(login.Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Contain'] },
      { Entity: 'Security', Permissions: ['Write'] },
    ]);
    // Not a member: the reader gets no Accounts permission.
    const reader = parseBody(
      await signIn(contained, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password),
      LoginResult,
    );
    expect(reader.Permissions).toEqual([{ Entity: 'Security', Permissions: ['Read'] }]);
    const admin = await contained.login(...ADMIN);
    const history = parseBody(
      await contained.call({ method: 'GET', url: '/api/Admin/Accounts/History', token: admin }),
      AccountHistoryList,
    );
    expect(history.find((entry) => entry.UserName === name && entry.Action === 'Created')).toMatchObject({
      ChangedBy: 'directory',
      Detail: 'Security: Write, Accounts: Contain (from directory groups)',
    });
  });

  it('a member of the Write group (through a nested group) signs in with Security Write', async () => {
    const a = await app();
    const response = await signIn(a, `ACME\\${PEOPLE.writer.uid}`, PEOPLE.writer.password);
    expect(response.statusCode, response.body).toBe(200);
    const login = parseBody(response, LoginResult);
    expect(login.UserName).toBe(`ACME\\${PEOPLE.writer.uid}`);
    expect(login.Permissions).toEqual([{ Entity: 'Security', Permissions: ['Write'] }]);
    // The account appears in the list as a directory account with read-only permissions.
    const admin = await a.login(...ADMIN);
    const list = parseBody(await a.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
    const account = list.find((item) => item.UserName === `ACME\\${PEOPLE.writer.uid}`);
    expect(account).toMatchObject({
      Source: 'Directory',
      // From LDAP_EMAIL_ATTRIBUTE (mail): what the person's device requests carry as UserEmail.
      Email: `${PEOPLE.writer.uid}@acme.example`,
      PermissionsEditable: false,
      Permissions: { Security: ['Write'], Accounts: [] },
      ActiveSessions: 1,
    });
    const id = account?.Id as number;
    expectProblem(
      await a.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${id}/Email`,
        token: admin,
        payload: { Email: 'someone.else@acme.example' },
      }),
      409,
      'directory-account',
    );
    expectProblem(
      await a.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${id}/Permissions`,
        token: admin,
        payload: { Permissions: { Security: ['Read'], Accounts: [] } },
      }),
      409,
      'directory-account',
    );
    expectProblem(
      await a.call({
        method: 'POST',
        url: `/api/Admin/Accounts/${id}/Password`,
        token: admin,
        payload: { Password: 'a brand new password' },
      }),
      409,
      'directory-account',
    );
    // An administrator can still disable it here: the directory's yes is then not enough.
    await a.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${id}/Enabled`,
      token: admin,
      payload: { Enabled: false },
    });
    expectProblem(await signIn(a, `ACME\\${PEOPLE.writer.uid}`, PEOPLE.writer.password), 401, 'invalid-credentials');
  });

  it('a member of the Read group gets Security Read; the name without a domain works too', async () => {
    const a = await app();
    for (const name of [`ACME\\${PEOPLE.reader.uid}`, `acme\\${PEOPLE.reader.uid.toUpperCase()}`, PEOPLE.reader.uid]) {
      const response = await signIn(a, name, PEOPLE.reader.password);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      expect(parseBody(response, LoginResult)).toMatchObject({
        UserName: `ACME\\${PEOPLE.reader.uid}`,
        Permissions: [{ Entity: 'Security', Permissions: ['Read'] }],
      });
    }
  });

  it('holds directory people to the second-factor policy: a writer’s password alone opens no session, a reader’s does', async () => {
    t = await createTestApp({ directory: directoryConfig(), secondFactor: 'writers', stepUpMinutes: 5 });
    const a = t;
    const writer = `ACME\\${PEOPLE.writer.uid}`;
    const sessions = async () => (await a.database.db.selectFrom('sessions').select('token_hash').execute()).length;
    // No second factor yet: a session that may only add one.
    const first = parseBody(await signIn(a, writer, PEOPLE.writer.password), LoginResult);
    expect(first).toMatchObject({ Successful: false, EnrolmentRequired: true });
    expectProblem(
      await a.call({ method: 'PUT', url: '/api/Consumer/PushMessageUsers', payload: {}, token: first.Token }),
      403,
      'second-factor-enrolment-required',
    );
    const codes = await a.call({
      method: 'POST',
      url: '/api/Admin/Accounts/Me/RecoveryCodes',
      payload: {},
      token: first.Token,
    });
    const [code] = parseBody(codes, RecoveryCodes).Codes;
    // With one: the password is only the first step, over the API and over HTTP Basic alike.
    const before = await sessions();
    const refused = expectProblem(await signIn(a, writer, PEOPLE.writer.password), 401, 'second-factor-required');
    expect(refused.Token).toBeUndefined();
    const basic = `Basic ${Buffer.from(`${writer}:${PEOPLE.writer.password}`).toString('base64')}`;
    expectProblem(
      await a.call({
        method: 'PUT',
        url: '/api/Consumer/PushMessageUsers',
        payload: {},
        headers: { authorization: basic },
      }),
      401,
      'second-factor-required',
    );
    expect(await sessions()).toBe(before);
    const second = await a.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/RecoveryCode',
      payload: { Ticket: refused.ticket, Code: code },
    });
    expect(parseBody(second, LoginResult)).toMatchObject({
      Successful: true,
      Permissions: [{ Entity: 'Security', Permissions: ['Write'] }],
    });
    // A reader holds no Write permission: the password is enough under the writers policy.
    const reader = parseBody(await signIn(a, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password), LoginResult);
    expect(reader.Successful).toBe(true);
    expect(reader.EnrolmentRequired).toBeFalsy();
    const served = await a.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: reader.Token });
    expect(served.statusCode, served.body).toBe(200);
  });

  it('HTTP Basic (the SDK) works for a directory account, with or without the domain', async () => {
    const a = await app();
    for (const name of [`ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.uid]) {
      const basic = `Basic ${Buffer.from(`${name}:${PEOPLE.reader.password}`).toString('base64')}`;
      for (let call = 0; call < 3; call += 1) {
        const response = await a.call({
          method: 'GET',
          url: '/Consumer/v3.2/Authentication/AuthorizationRequests',
          headers: { authorization: basic },
        });
        expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      }
      const wrong = `Basic ${Buffer.from(`${name}:not the password`).toString('base64')}`;
      const refused = await a.call({
        method: 'GET',
        url: '/Consumer/Authentication/AuthorizationRequests',
        headers: { authorization: wrong },
      });
      expectProblem(refused, 401, 'invalid-credentials');
    }
  });

  it('a member of neither group signs in without permissions', async () => {
    const a = await app();
    const response = await signIn(a, `ACME\\${PEOPLE.outsider.uid}`, PEOPLE.outsider.password);
    expect(response.statusCode, response.body).toBe(200);
    expect(parseBody(response, LoginResult).Permissions).toEqual([]);
  });

  it('a wrong password and an unknown user get the same 401', async () => {
    const a = await app();
    const wrong = expectProblem(
      await signIn(a, `ACME\\${PEOPLE.reader.uid}`, 'not the password'),
      401,
      'invalid-credentials',
    );
    const unknown = expectProblem(
      await signIn(a, 'ACME\\no.such.person', 'whatever it is'),
      401,
      'invalid-credentials',
    );
    expect(unknown).toEqual(wrong);
    // A filter-injection attempt is just an unknown name.
    expectProblem(await signIn(a, 'ACME\\*', PEOPLE.reader.password), 401, 'invalid-credentials');
    expectProblem(
      await signIn(a, `ACME\\${PEOPLE.reader.uid})(uid=*`, PEOPLE.reader.password),
      401,
      'invalid-credentials',
    );
  });

  it('refuses an account the directory marks disabled the Active Directory way, even with the right password', async () => {
    const a = await app();
    // Member of the Read group, right password, but userAccountControl has ACCOUNTDISABLE: the same 401 as any refusal.
    expectProblem(
      await signIn(a, `ACME\\${PEOPLE.disabled.uid}`, PEOPLE.disabled.password),
      401,
      'invalid-credentials',
    );
    // userAccountControl 512 (a normal account) signs in.
    expect((await signIn(a, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password)).statusCode).toBe(200);
  });

  it('refuses a user name outside LDAP_DOMAIN without contacting the directory', async () => {
    // A directory that cannot be reached proves it: asking it would answer 503.
    const a = await app({ urls: ['ldap://127.0.0.1:1'] });
    expectProblem(await signIn(a, `OTHER\\${PEOPLE.reader.uid}`, PEOPLE.reader.password), 401, 'invalid-credentials');
    expectProblem(await signIn(a, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password), 503, 'directory-unavailable');
    // And with the directory up, the right password under another domain is still refused.
    await a.close();
    t = null;
    const b = await app();
    expectProblem(await signIn(b, `OTHER\\${PEOPLE.reader.uid}`, PEOPLE.reader.password), 401, 'invalid-credentials');
  });

  it('re-reads groups at every sign-in: removed from the Read group, the next sign-in has no Security Read, nor the Contain it gave', async () => {
    // The Read group also gives Contain here: both go with the membership.
    const a = await app({ groupAccountsContain: GROUP_READ });
    const name = `ACME\\${PEOPLE.reader.uid}`;
    expect(parseBody(await signIn(a, name, PEOPLE.reader.password), LoginResult).Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Contain'] },
      { Entity: 'Security', Permissions: ['Read'] },
    ]);
    const admin = new Client({ url: ldap.url });
    await admin.bind(ADMIN_DN, ADMIN_PASSWORD);
    const member = `uid=${PEOPLE.reader.uid},${USER_BASE}`;
    const { Attribute, Change } = await import('ldapts');
    try {
      // groupOfNames needs a member: the outsider stands in while the reader is out.
      await admin.modify(GROUP_READ, [
        new Change({
          operation: 'add',
          modification: new Attribute({ type: 'member', values: [`uid=${PEOPLE.outsider.uid},${USER_BASE}`] }),
        }),
        new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: [member] }) }),
      ]);
      expect(parseBody(await signIn(a, name, PEOPLE.reader.password), LoginResult).Permissions).toEqual([]);
      const token = await a.login(...ADMIN);
      const history = parseBody(
        await a.call({ method: 'GET', url: '/api/Admin/Accounts/History', token }),
        AccountHistoryList,
      );
      expect(history.find((entry) => entry.Action === 'PermissionsChanged')).toMatchObject({
        UserName: name,
        ChangedBy: 'directory',
        Detail: 'Security: none, Accounts: none (from directory groups)',
      });
    } finally {
      await admin.modify(GROUP_READ, [
        new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [member] }) }),
        new Change({
          operation: 'delete',
          modification: new Attribute({ type: 'member', values: [`uid=${PEOPLE.outsider.uid},${USER_BASE}`] }),
        }),
      ]);
      await admin.unbind();
    }
  });

  it('answers 503 when the search account is rejected, never 401', async () => {
    const a = await app({ bindPassword: 'not the search password' });
    expectProblem(await signIn(a, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password), 503, 'directory-unavailable');
  });

  it('fails over to the next LDAP_URL when the first cannot be reached', async () => {
    const a = await app({ urls: ['ldap://127.0.0.1:1', ldap.url] });
    expect((await signIn(a, `ACME\\${PEOPLE.reader.uid}`, PEOPLE.reader.password)).statusCode).toBe(200);
  });

  it('signs in over StartTLS with LDAP_CA_FILE; without the CA the certificate is refused (503, not 401)', async () => {
    const { readFileSync } = await import('node:fs');
    const a = await app({ startTls: true, ca: readFileSync(ldap.caFile, 'utf8'), caFile: ldap.caFile });
    const response = await signIn(a, `ACME\\${PEOPLE.writer.uid}`, PEOPLE.writer.password);
    expect(response.statusCode, response.body).toBe(200);
    expect(parseBody(response, LoginResult).Permissions).toEqual([{ Entity: 'Security', Permissions: ['Write'] }]);
    await a.close();
    t = null;
    const untrusted = await app({ startTls: true });
    expectProblem(
      await signIn(untrusted, `ACME\\${PEOPLE.writer.uid}`, PEOPLE.writer.password),
      503,
      'directory-unavailable',
    );
  });

  it('directory stopped mid-run: 503 (logged once), local accounts and open sessions go on; back to normal after', async () => {
    const a = await app();
    const name = `ACME\\${PEOPLE.reader.uid}`;
    const before = parseBody(await signIn(a, name, PEOPLE.reader.password), LoginResult);
    await ldap.stop();
    try {
      for (let i = 0; i < 3; i++) {
        expectProblem(await signIn(a, name, PEOPLE.reader.password), 503, 'directory-unavailable');
      }
      // The local break-glass admin and the session opened before the outage still work.
      await a.login(...ADMIN);
      const session = await a.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: before.Token });
      expect(session.statusCode).toBe(200);
    } finally {
      await ldap.start();
    }
    expect((await signIn(a, name, PEOPLE.reader.password)).statusCode).toBe(200);
    const token = await a.login(...ADMIN);
    const list = parseBody(await a.call({ method: 'GET', url: '/api/Admin/Accounts', token }), AccountList);
    expect(list.find((item) => item.UserName === name)).toMatchObject({ Source: 'Directory' });
    Account.parse(list[0]);
  });

  it('logs an outage once with its reason, and its end once', async () => {
    const lines: Array<[string, string]> = [];
    const directory = new Directory(directoryConfig(), {
      warn: (_details, message) => lines.push(['warn', message]),
      info: (_details, message) => lines.push(['info', message]),
    });
    expect(await directory.signIn(PEOPLE.reader.uid, PEOPLE.reader.password)).not.toBeNull();
    await ldap.stop();
    try {
      for (let i = 0; i < 4; i++) {
        await expect(directory.signIn(PEOPLE.reader.uid, PEOPLE.reader.password)).rejects.toThrow();
      }
    } finally {
      await ldap.start();
    }
    expect(await directory.signIn(PEOPLE.reader.uid, PEOPLE.reader.password)).not.toBeNull();
    expect(await directory.signIn(PEOPLE.reader.uid, PEOPLE.reader.password)).not.toBeNull();
    expect(lines.map(([level]) => level)).toEqual(['warn', 'info']);
    expect(lines[0]?.[1]).toMatch(/^directory unavailable: ldap:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });
});

describe('a local account named like a directory person', () => {
  const LOCAL_PASSWORD = 'violet harbour lantern 42';
  const localName = `ACME\\${PEOPLE.writer.uid}`;

  it('keeps its own password and grants: the directory person of that name is refused (401), warned about, and changes nothing', async () => {
    // Made before the directory was connected: afterwards the API refuses names in the directory's domain.
    const before = await createTestApp();
    t = before;
    const admin = await before.login(...ADMIN);
    const created = await before.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: {
        UserName: localName,
        Password: LOCAL_PASSWORD,
        Permissions: { Security: [], Accounts: ['Read', 'Write'] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { Id } = parseBody(created, Account);
    // The account as stored, and how many accounts there are (a directory sign-in would add one).
    const stored = async () => ({
      account: await before.database.db
        .selectFrom('principals')
        .leftJoin('permission_grants', 'permission_grants.principal_id', 'principals.id')
        .select(['user_name', 'source', 'password_hash', 'enabled', 'entity', 'permission'])
        .where('user_key', '=', localName.toLowerCase())
        .orderBy('entity')
        .orderBy('permission')
        .execute(),
      accounts: (await before.database.db.selectFrom('principals').select('id').execute()).length,
    });
    const snapshot = await stored();

    await before.app.close();
    const log = logCapture();
    const app = await buildApp(
      {
        config: { ...before.config, directory: directoryConfig() },
        database: before.database,
        clock: before.clock.now,
      },
      log.logger,
    );
    const signIn = (UserName: string, Password: string) =>
      app.inject({ method: 'POST', url: '/api/Consumer/Authentication', payload: { UserName, Password } });
    try {
      // The start-up log names it, as a local account inside LDAP_DOMAIN (beside the demo's ACME people with accounts).
      const warned = log.warnings('LDAP_DOMAIN').map((line) => line.accounts);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain(localName);

      // The directory person signs in with their directory password, by the name without a domain: the directory
      // says yes, but the name is the local account's.
      const wrong = expectProblem(await signIn(localName, 'not the password'), 401, 'invalid-credentials');
      const refused = expectProblem(
        await signIn(PEOPLE.writer.uid, PEOPLE.writer.password),
        401,
        'invalid-credentials',
      );
      expect(refused).toEqual(wrong);
      const [warning] = log.warnings('directory sign-in refused');
      expect(warning?.msg).toContain(localName);
      // With the domain, the name is the local account's: its own password decides, and this is not it.
      expectProblem(await signIn(localName, PEOPLE.writer.password), 401, 'invalid-credentials');
      // The local password does not open the directory's door either.
      expectProblem(await signIn(PEOPLE.writer.uid, LOCAL_PASSWORD), 401, 'invalid-credentials');
      expect(await stored()).toEqual(snapshot);

      // The local account still signs in with its own password, with its own grants.
      const local = await signIn(localName, LOCAL_PASSWORD);
      expect(local.statusCode, local.body).toBe(200);
      const login = parseBody(local, LoginResult);
      expect(login.Permissions).toEqual([{ Entity: 'Accounts', Permissions: ['Read', 'Write'] }]);
      const history = parseBody(
        await app.inject({
          method: 'GET',
          url: `/api/Admin/Accounts/${Id}/History`,
          headers: { authorization: `Bearer ${login.Token}` },
        }),
        AccountHistoryList,
      );
      expect(history.filter((entry) => entry.ChangedBy === 'directory')).toEqual([]);
      const account = parseBody(
        await app.inject({
          method: 'GET',
          url: `/api/Admin/Accounts/${Id}`,
          headers: { authorization: `Bearer ${login.Token}` },
        }),
        Account,
      );
      expect(account).toMatchObject({ Source: 'Local', InsideDirectoryDomain: true });
    } finally {
      await app.close();
    }
  });
});
