import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DeviceCodeSent,
  DevicePushList,
  EnrollmentLink,
  LoginResult,
  RecoveryCodes,
  SingleSignOn,
  type SingleSignOnRefusal,
  SingleSignOut,
} from '../../../shared/contract/index.ts';
import { ConfigError } from '../../config.ts';
import type { OidcConfig } from '../../oidc-config.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { decide, deviceCall, enrollDevice, PHONE } from '../../test/device-helpers.ts';
import { ADMIN, createTestApp, expectProblem, OPERATOR, parseBody, type TestApp } from '../../test/harness.ts';
import { TEST_CLIENT, TestOidcProvider } from '../../test/oidc-provider.ts';

const PUBLIC_URL = 'http://tachyon.test';
const CALLBACK = `${PUBLIC_URL}/api/Consumer/Authentication/Oidc/Callback`;
const START = '/api/Consumer/Authentication/Oidc/Start';
const EXCHANGE = '/api/Consumer/Authentication/Oidc/Session';
const AUTH = '/api/Consumer/Authentication';
const LOGIN_ADMIN = { UserName: ADMIN[0], Password: ADMIN[1] };

let provider: TestOidcProvider;
let t: TestApp;
let audit: AuditLines;

const oidcConfig = (overrides: Partial<OidcConfig> = {}): OidcConfig => ({
  issuer: provider.issuer,
  clientId: TEST_CLIENT.id,
  clientSecret: TEST_CLIENT.secret,
  name: 'Acme Login',
  usernameClaim: 'preferred_username',
  domain: 'ACME',
  groupsClaim: 'groups',
  groupSecurityRead: 'tachyon-helpdesk',
  groupSecurityWrite: 'tachyon-security',
  groupAccountsRead: null,
  groupAccountsWrite: 'tachyon-admins',
  groupAccountsContain: 'tachyon-containment',
  mfaAmr: ['mfa', 'hwk', 'swk', 'otp'],
  acrValues: [],
  // Short, for the slow provider's test; long enough for a busy machine's real answers.
  timeoutSeconds: 4,
  ...overrides,
});

const startApp = async (overrides: Partial<OidcConfig> = {}) => {
  audit = new AuditLines();
  return createTestApp({ publicUrl: PUBLIC_URL, oidc: oidcConfig(overrides) }, { auditSink: audit });
};

beforeAll(async () => {
  provider = await TestOidcProvider.start({
    redirectUris: [CALLBACK],
    postLogoutRedirectUris: [`${PUBLIC_URL}/login`],
  });
});
afterAll(() => provider.stop());
beforeEach(async () => {
  provider.tamper = null;
  t = await startApp();
});
afterEach(() => t.close());

const alice = (claims: Record<string, unknown> = {}, amr: string[] = ['pwd', 'mfa']) => {
  provider.person = {
    sub: 'alice-0001',
    claims: { preferred_username: 'alice', email: 'alice@acme.example', groups: ['tachyon-helpdesk'], ...claims },
    amr,
  };
};

const cookieOf = (setCookie: string | string[] | undefined) =>
  String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0] ?? '';

/** The browser at the provider: its redirects followed (with its cookies) until it is sent back to the callback. */
async function throughProvider(authorizationUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value.join('='));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}: ${response.status} ${await response.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(CALLBACK)) return next;
    url = next.href;
  }
  throw new Error('too many redirects at the provider');
}

/** Start → provider → callback, as a browser goes; the callback's answer and the browser's flow cookie. */
async function signInAtProvider(redirect = '/push-users', cookieOverride?: string | null) {
  const start = await t.call({ method: 'GET', url: `${START}?redirect=${encodeURIComponent(redirect)}` });
  expect(start.statusCode, start.body).toBe(303);
  const flowCookie = cookieOf(start.headers['set-cookie']);
  const back = await throughProvider(String(start.headers.location));
  const cookie = cookieOverride === undefined ? flowCookie : cookieOverride;
  const callback = await t.call({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: cookie ? { cookie } : {},
  });
  return { callback, flowCookie, back, authorizationUrl: String(start.headers.location) };
}

/** The whole flow, down to the session the sign-in page receives. */
async function signIn(redirect = '/push-users') {
  const { callback, flowCookie, back } = await signInAtProvider(redirect);
  expect(callback.statusCode, callback.body).toBe(303);
  const landing = new URL(String(callback.headers.location), PUBLIC_URL);
  const code = landing.searchParams.get('sso') ?? '';
  const exchange = await t.call({
    method: 'POST',
    url: EXCHANGE,
    payload: { Code: code },
    headers: { cookie: flowCookie },
  });
  return { landing, code, flowCookie, exchange, back };
}

const accountCount = async (userName: string) =>
  (await t.database.db.selectFrom('principals').select('id').where('user_key', '=', userName.toLowerCase()).execute())
    .length;
const sessionCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('single sign-on with a real OpenID provider', () => {
  it('tells the sign-in page it is offered, and under which name', async () => {
    const response = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Oidc' });
    expect(parseBody(response, SingleSignOn)).toEqual({ Enabled: true, Name: 'Acme Login' });
  });

  it('signs a person in: account made at the first sign-in, permissions from groups, back to the page wanted', async () => {
    alice({ groups: ['tachyon-helpdesk', 'tachyon-admins', 'unrelated'] });
    const { landing, exchange } = await signIn('/push-users?status=Active');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('redirect')).toBe('/push-users?status=Active');
    const session = parseBody(exchange, LoginResult);
    expect(session.UserName).toBe('ACME\\alice');
    expect(session.Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Write'] },
      { Entity: 'Security', Permissions: ['Read'] },
    ]);
    const me = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: session.Token });
    expect(me.statusCode).toBe(200);
    const admin = await t.login(...ADMIN);
    const accounts = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin });
    const account = accounts.json<Array<Record<string, unknown>>>().find((item) => item.UserName === 'ACME\\alice');
    expect(account).toMatchObject({ Source: 'Oidc', Email: 'alice@acme.example', PermissionsEditable: false });
    const [line] = audit.of('sign-in').filter((record) => record.event.outcome === 'success');
    expect(line?.user?.name).toBe('ACME\\alice');
    expect(line?.tachyon?.details).toEqual({ method: 'oidc', subject: 'alice-0001', mfaCounted: true });
  });

  it('gives Contain on Accounts to a member of OIDC_GROUP_ACCOUNTS_CONTAIN: a person contained, an administrator out of reach', async () => {
    alice({ groups: ['tachyon-helpdesk', 'tachyon-containment'] });
    const session = parseBody((await signIn()).exchange, LoginResult);
    expect(session.Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Contain'] },
      { Entity: 'Security', Permissions: ['Read'] },
    ]);
    const admin = await t.login(...ADMIN);
    const accounts = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin });
    const idOf = (name: string) =>
      accounts.json<Array<{ Id: number; UserName: string }>>().find((item) => item.UserName === name)?.Id;
    const operator = await t.login(...OPERATOR);
    const out = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${idOf(OPERATOR[0])}/SignOut`,
      token: session.Token,
    });
    expect(out.statusCode, out.body).toBe(200);
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: operator }),
      401,
      'unauthenticated',
    );
    const refused = expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${idOf(ADMIN[0])}/SignOut`, token: session.Token }),
      403,
      'forbidden',
    );
    expect(refused.detail).toContain('holds Accounts permissions');
    // Out of the group at the provider: the next sign-in has no Contain.
    alice({ groups: ['tachyon-helpdesk'] });
    expect(parseBody((await signIn()).exchange, LoginResult).Permissions).toEqual([
      { Entity: 'Security', Permissions: ['Read'] },
    ]);
  });

  it('counts the provider’s MFA from amr, and not without it', async () => {
    alice({}, ['pwd']);
    expect((await signIn()).exchange.statusCode).toBe(200);
    alice({}, ['pwd', 'otp']);
    expect((await signIn()).exchange.statusCode).toBe(200);
    const counted = audit
      .of('sign-in')
      .filter((record) => record.event.outcome === 'success')
      .map((record) => record.tachyon?.details?.mfaCounted);
    expect(counted).toEqual([false, true]);
  });

  it('lets the provider’s MFA stand for the second factor; without it a writer must still add one here', async () => {
    await t.close();
    audit = new AuditLines();
    t = await createTestApp(
      { publicUrl: PUBLIC_URL, oidc: oidcConfig(), secondFactor: 'writers', stepUpMinutes: 5 },
      { auditSink: audit },
    );
    alice({ groups: ['tachyon-helpdesk', 'tachyon-security'] }, ['pwd']);
    const without = parseBody((await signIn()).exchange, LoginResult);
    // The product's own second step: a session that can do nothing but add a second factor.
    expect(without.Successful).toBe(false);
    expect(without.EnrolmentRequired).toBe(true);
    const refused = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: without.Token });
    expectProblem(refused, 403, 'second-factor-enrolment-required');

    alice({ groups: ['tachyon-helpdesk', 'tachyon-security'] }, ['pwd', 'mfa']);
    const withMfa = parseBody((await signIn()).exchange, LoginResult);
    expect(withMfa.Successful).toBe(true);
    expect(withMfa.EnrolmentRequired).toBeFalsy();
    const served = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: withMfa.Token });
    expect(served.statusCode).toBe(200);
    // One sign-in line each, with what single sign-on knows.
    const lines = audit.of('sign-in').filter((record) => record.event.outcome === 'success');
    expect(lines.map((record) => record.tachyon?.details?.mfaCounted)).toEqual([false, true]);
  });

  // The longest flows here (the provider, a second step, a phone): room on a busy machine.
  it('after single sign-on without the provider’s MFA, the session the second step opens still signs out there', async () => {
    await t.close();
    audit = new AuditLines();
    t = await createTestApp(
      { publicUrl: PUBLIC_URL, oidc: oidcConfig(), secondFactor: 'writers', stepUpMinutes: 5 },
      { auditSink: audit },
    );
    alice({ groups: ['tachyon-security'] }, ['pwd']);
    // First sign-in: nothing to prove yet, so a session that may only add a second factor; recovery codes it is.
    const enrolment = parseBody((await signIn()).exchange, LoginResult);
    expect(enrolment.EnrolmentRequired).toBe(true);
    const codes = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts/Me/RecoveryCodes',
      payload: {},
      token: enrolment.Token,
    });
    const [code] = parseBody(codes, RecoveryCodes).Codes;

    const { exchange } = await signIn();
    const problem = expectProblem(exchange, 401, 'second-factor-required');
    expect(problem.detail).toMatch(/^Single sign-on recognised you; ACME\\alice also needs a second factor/);
    // The ID token stays on the server: the ticket the browser holds is all it gets.
    expect(exchange.body).not.toMatch(/eyJ/);
    const second = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/RecoveryCode',
      payload: { Ticket: problem.ticket, Code: code },
    });
    const session = parseBody(second, LoginResult);
    expect(session.Successful).toBe(true);
    const out = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/Oidc/SignOut',
      token: session.Token,
    });
    const url = new URL(parseBody(out, SingleSignOut).EndSessionUrl ?? 'http://none.example/');
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    // Spent, the ticket keeps no copy of the token.
    const tickets = await t.database.db.selectFrom('sign_in_tickets').select('oidc_id_token').execute();
    expect(tickets.map((ticket) => ticket.oidc_id_token)).toEqual([null]);
  }, 15_000);

  it('after single sign-on without the provider’s MFA, a code sent to one’s phone opens the session, which signs out there', async () => {
    await t.close();
    audit = new AuditLines();
    t = await createTestApp(
      { publicUrl: PUBLIC_URL, oidc: oidcConfig(), secondFactor: 'writers', stepUpMinutes: 5 },
      { auditSink: audit },
    );
    // The admin who approves devices: recovery codes at the first sign-in make a full session.
    const admin = parseBody(await t.call({ method: 'POST', url: AUTH, payload: LOGIN_ADMIN }), LoginResult).Token;
    await t.call({ method: 'POST', url: '/api/Admin/Accounts/Me/RecoveryCodes', payload: {}, token: admin });
    alice({ groups: ['tachyon-security'] }, ['pwd']);
    // First sign-in: nothing to prove yet, so a session that may only add a second factor; a phone it is.
    const enrolment = parseBody((await signIn()).exchange, LoginResult);
    expect(enrolment.EnrolmentRequired).toBe(true);
    const link = await t.call({
      method: 'POST',
      url: '/api/Device/EnrollmentLinks',
      payload: {},
      token: enrolment.Token,
    });
    expect(link.statusCode, link.body).toBe(201);
    const phone = await enrollDevice(t, { code: parseBody(link, EnrollmentLink).Code }, PHONE);
    await decide(t, admin, phone);

    const { exchange } = await signIn();
    const problem = expectProblem(exchange, 401, 'second-factor-required');
    expect(problem.methods).toEqual(['DeviceCode']);
    expect(exchange.body).not.toMatch(/eyJ/);
    const sent = await t.call({ method: 'POST', url: `${AUTH}/DeviceCode/Send`, payload: { Ticket: problem.ticket } });
    expect(parseBody(sent, DeviceCodeSent).Devices).toEqual([PHONE.Model]);
    const inbox = await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' });
    const [push] = parseBody(inbox, DevicePushList);
    expect(push).toMatchObject({ Purpose: 'SignIn', Name: 'Dashboard sign-in' });
    const second = await t.call({
      method: 'POST',
      url: `${AUTH}/DeviceCode`,
      payload: { Ticket: problem.ticket, Code: push?.Token },
    });
    const session = parseBody(second, LoginResult);
    expect(session).toMatchObject({ UserName: 'ACME\\alice', Successful: true });
    expect(session.EnrolmentRequired).toBeFalsy();
    expect(audit.of('second-factor-verified').at(-1)?.event.reason).toBe('device-code');

    const out = await t.call({ method: 'POST', url: `${AUTH}/Oidc/SignOut`, token: session.Token });
    const url = new URL(parseBody(out, SingleSignOut).EndSessionUrl ?? 'http://none.example/');
    expect(url.origin).toBe(provider.issuer);
    // The provider's own ID token of this person, carried from the first factor through the ticket.
    const [, payload = ''] = (url.searchParams.get('id_token_hint') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ iss: provider.issuer, sub: 'alice-0001', aud: TEST_CLIENT.id });
    // Spent, the ticket keeps no copy of the token.
    const tickets = await t.database.db.selectFrom('sign_in_tickets').select('oidc_id_token').execute();
    expect(tickets.map((ticket) => ticket.oidc_id_token)).toEqual([null]);
  }, 15_000);

  it('writes the permissions a sign-in brings only once it completes: an abandoned second step changes nothing', async () => {
    await t.close();
    audit = new AuditLines();
    t = await createTestApp(
      { publicUrl: PUBLIC_URL, oidc: oidcConfig(), secondFactor: 'writers' },
      { auditSink: audit },
    );
    alice({}, ['pwd']);
    const reader = parseBody((await signIn()).exchange, LoginResult).Token;
    const made = await t.call({ method: 'POST', url: '/api/Admin/Accounts/Me/RecoveryCodes', token: reader });
    expect(made.statusCode, made.body).toBe(201);
    const [code] = parseBody(made, RecoveryCodes).Codes;

    // Alice joins a write group; someone with her provider password starts a sign-in and abandons its second step.
    alice({ groups: ['tachyon-helpdesk', 'tachyon-security'] }, ['pwd']);
    const abandoned = expectProblem((await signIn()).exchange, 401, 'second-factor-required');
    const grantsNow = () =>
      t.database.db
        .selectFrom('permission_grants')
        .innerJoin('principals', 'principals.id', 'permission_grants.principal_id')
        .select(['entity', 'permission'])
        .where('principals.user_key', '=', 'acme\\alice')
        .orderBy('permission')
        .execute();
    expect(await grantsNow()).toEqual([{ entity: 'Security', permission: 'Read' }]);
    const before = await t.call({ method: 'GET', url: `${AUTH}/Session`, token: reader });
    expect(before.json()).toMatchObject({ Permissions: [{ Entity: 'Security', Permissions: ['Read'] }] });
    expect(before.json()).not.toHaveProperty('EnrolmentRequired');

    // Completed with the second step, the sign-in writes them, and the reader's session must now prove a factor.
    const done = await t.call({
      method: 'POST',
      url: `${AUTH}/RecoveryCode`,
      payload: { Ticket: abandoned.ticket, Code: code },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await grantsNow()).toEqual([
      { entity: 'Security', permission: 'Read' },
      { entity: 'Security', permission: 'Write' },
    ]);
    const after = await t.call({ method: 'GET', url: `${AUTH}/Session`, token: reader });
    expect(after.json()).toMatchObject({ EnrolmentRequired: true });
  }, 15_000);

  it('counts an acr equal to OIDC_ACR_VALUES, which it requests', async () => {
    await t.close();
    t = await startApp({ acrValues: ['urn:acme:loa:mfa'] });
    provider.person = {
      sub: 'carol-1',
      claims: { preferred_username: 'carol', groups: ['tachyon-helpdesk'] },
      amr: ['pwd'],
      acr: 'urn:acme:loa:mfa',
    };
    const { exchange } = await signIn();
    expect(exchange.statusCode).toBe(200);
    const start = await t.call({ method: 'GET', url: START });
    expect(new URL(String(start.headers.location)).searchParams.get('acr_values')).toBe('urn:acme:loa:mfa');
    const [line] = audit.of('sign-in').filter((record) => record.event.outcome === 'success');
    expect(line?.tachyon?.details?.mfaCounted).toBe(true);
  });

  it('re-reads the groups at every sign-in: a permission removed at the provider is gone', async () => {
    alice({ groups: ['tachyon-helpdesk', 'tachyon-security'] });
    expect(parseBody((await signIn()).exchange, LoginResult).Permissions).toEqual([
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
    ]);
    alice({ groups: ['tachyon-helpdesk'] });
    expect(parseBody((await signIn()).exchange, LoginResult).Permissions).toEqual([
      { Entity: 'Security', Permissions: ['Read'] },
    ]);
  });

  it('takes every permission from someone removed from all the groups, and refuses them', async () => {
    alice({ groups: ['tachyon-security'] });
    const session = parseBody((await signIn()).exchange, LoginResult);
    alice({ groups: [] });
    const { callback } = await signInAtProvider();
    expect(callback.headers.location).toBe('/login?sso_error=oidc-no-group&redirect=%2Fpush-users');
    const me = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: session.Token });
    expect(me.json<{ Permissions: unknown[] }>().Permissions).toEqual([]);
  });

  it('keeps only same-origin paths as the page to return to', async () => {
    alice();
    for (const target of ['https://evil.example/', '//evil.example', '/\t/evil.example']) {
      const { landing } = await signIn(target);
      expect(landing.searchParams.get('redirect')).toBe('/authorization-requests');
    }
  });

  it('signs out here and at the provider, with id_token_hint and the way back to the sign-in page', async () => {
    alice();
    const session = parseBody((await signIn()).exchange, LoginResult);
    const out = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/Oidc/SignOut',
      token: session.Token,
    });
    const url = new URL(parseBody(out, SingleSignOut).EndSessionUrl ?? '');
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    const me = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: session.Token });
    expect(me.statusCode).toBe(401);
    // The provider accepts that address: it shows its own sign-out confirmation rather than an error.
    const atProvider = await fetch(url, { redirect: 'manual' });
    expect(atProvider.status).toBe(200);
    expect(await atProvider.text()).toMatch(/logout|sign.?out/i);
  });

  it('ends single sign-on sessions at once with an account admin’s Sign out everywhere', async () => {
    alice();
    const session = parseBody((await signIn()).exchange, LoginResult);
    const admin = await t.login(...ADMIN);
    const accounts = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin });
    const id = accounts
      .json<Array<{ Id: number; UserName: string }>>()
      .find((item) => item.UserName === 'ACME\\alice')?.Id;
    const out = await t.call({ method: 'POST', url: `/api/Admin/Accounts/${id}/SignOut`, token: admin });
    expect(out.statusCode, out.body).toBe(200);
    const me = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: session.Token });
    expect(me.statusCode).toBe(401);
  });
});

describe('the one-time code the sign-in page exchanges', () => {
  it('is used once', async () => {
    alice();
    const { code, flowCookie, exchange } = await signIn();
    expect(exchange.statusCode).toBe(200);
    const again = await t.call({
      method: 'POST',
      url: EXCHANGE,
      payload: { Code: code },
      headers: { cookie: flowCookie },
    });
    expectProblem(again, 400, 'single-sign-on-code-invalid');
    expect(audit.of('sign-in').at(-1)?.event.reason).toBe('oidc-handover-invalid');
  });

  it('opens nothing in another browser (without the flow cookie)', async () => {
    alice();
    const { callback } = await signInAtProvider();
    const code = new URL(String(callback.headers.location), PUBLIC_URL).searchParams.get('sso') ?? '';
    const sessions = await sessionCount();
    expectProblem(
      await t.call({ method: 'POST', url: EXCHANGE, payload: { Code: code } }),
      400,
      'single-sign-on-code-invalid',
    );
    expect(await sessionCount()).toBe(sessions);
  });

  it('lapses after a minute', async () => {
    alice();
    const { callback, flowCookie } = await signInAtProvider();
    const code = new URL(String(callback.headers.location), PUBLIC_URL).searchParams.get('sso') ?? '';
    t.clock.advanceMinutes(2);
    const late = await t.call({
      method: 'POST',
      url: EXCHANGE,
      payload: { Code: code },
      headers: { cookie: flowCookie },
    });
    expectProblem(late, 400, 'single-sign-on-code-invalid');
  });
});

describe('every bad answer: back to the sign-in page with the reason, an audit line, and no account or session', () => {
  /**
   * The refusal: the browser back at the sign-in page with the reason's code (the page's fixed words, which the code
   * names), the specifics in the audit line, and nothing made.
   */
  async function expectRefused(
    callback: Awaited<ReturnType<typeof t.call>>,
    reason: SingleSignOnRefusal,
    words: RegExp,
    { userName = 'ACME\\alice', accountExpected = false, sessionsBefore = 0 } = {},
  ) {
    expect(callback.statusCode, callback.body).toBe(303);
    const landing = new URL(String(callback.headers.location), PUBLIC_URL);
    expect(landing.origin).toBe(PUBLIC_URL);
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('sso_error')).toBe(reason);
    // Only the code: nothing the provider or the request said travels to the page.
    expect([...landing.searchParams.keys()].filter((key) => key !== 'redirect')).toEqual(['sso_error']);
    const line = audit.of('sign-in').at(-1);
    expect(line?.event.outcome).toBe('failure');
    expect(line?.event.reason).toBe(reason);
    expect(line?.tachyon?.details?.method).toBe('oidc');
    expect(String(line?.tachyon?.details?.message)).toMatch(words);
    expect(await t.database.db.selectFrom('oidc_handovers').selectAll().execute()).toEqual([]);
    if (!accountExpected) expect(await accountCount(userName)).toBe(0);
    const sso = await t.database.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('oidc_id_token', 'is not', null)
      .execute();
    expect(sso).toHaveLength(sessionsBefore);
  }

  it('no state', async () => {
    alice();
    const { back, flowCookie } = await signInAtProvider('/', null);
    back.searchParams.delete('state');
    const callback = await t.call({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: flowCookie },
    });
    await expectRefused(callback, 'oidc-state-mismatch', /does not belong to a sign-in started in this browser/);
  });

  it('a wrong state', async () => {
    alice();
    const { back, flowCookie } = await signInAtProvider('/', null);
    back.searchParams.set('state', 'forged-state');
    const callback = await t.call({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: flowCookie },
    });
    await expectRefused(callback, 'oidc-state-mismatch', /Start again from the sign-in page/);
  });

  it('an answer brought to another browser (no flow cookie)', async () => {
    alice();
    const { callback } = await signInAtProvider('/', null);
    await expectRefused(callback, 'oidc-state-mismatch', /does not belong/);
  });

  it('the same answer twice', async () => {
    alice();
    const { back, flowCookie, exchange } = await signIn();
    expect(exchange.statusCode).toBe(200);
    const replay = await t.call({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: flowCookie },
    });
    await expectRefused(replay, 'oidc-state-mismatch', /already used/, {
      accountExpected: true,
      sessionsBefore: 1,
    });
  });

  it('a replayed code under a new sign-in', async () => {
    alice();
    const first = await signIn();
    expect(first.exchange.statusCode).toBe(200);
    await t.database.db.deleteFrom('principals').where('user_key', '=', 'acme\\alice').execute();
    // A second sign-in started in this browser, answered with the first one's code.
    const start = await t.call({ method: 'GET', url: START });
    const flowCookie = cookieOf(start.headers['set-cookie']);
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const replay = new URL(first.back.href);
    replay.searchParams.set('state', state);
    const callback = await t.call({
      method: 'GET',
      url: `${replay.pathname}${replay.search}`,
      headers: { cookie: flowCookie },
    });
    await expectRefused(callback, 'oidc-code-invalid', /already used, or it expired/);
  });

  const forged: Array<[string, (claims: Record<string, unknown>) => Record<string, unknown>]> = [
    ['an ID token for another audience', (claims) => ({ ...claims, aud: 'another-client' })],
    ['an ID token from another issuer', (claims) => ({ ...claims, iss: 'https://evil.example' })],
    [
      'an expired ID token',
      (claims) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
    ],
    ['an ID token with a wrong nonce', (claims) => ({ ...claims, nonce: 'not-the-nonce' })],
  ];
  for (const [name, change] of forged) {
    it(name, async () => {
      alice();
      provider.tamper = { kind: 'claims', change };
      const { callback } = await signInAtProvider();
      await expectRefused(callback, 'oidc-token-invalid', /failed its checks/);
    });
  }

  it('an ID token signed by an unknown key', async () => {
    alice();
    provider.tamper = { kind: 'unknown-key' };
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-token-invalid', /failed its checks/);
  });

  it('a provider that is slow: a time-out, never a hang', async () => {
    alice();
    provider.tamper = { kind: 'slow', ms: 10_000 };
    const started = performance.now();
    const { callback } = await signInAtProvider();
    expect(performance.now() - started).toBeLessThan(9_000);
    await expectRefused(callback, 'oidc-provider-unavailable', /did not answer in time/);
  }, 30_000);

  it('a missing user-name claim', async () => {
    provider.person = { sub: 'nameless', claims: { groups: ['tachyon-helpdesk'] } };
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-no-username', /no usable "preferred_username" claim/);
    expect(audit.of('sign-in').at(-1)?.tachyon?.details?.subject).toBe('nameless');
  });

  it('a groups claim that is not a list', async () => {
    alice({ groups: 'tachyon-helpdesk' });
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-groups-invalid', /is not a list of groups/);
  });

  it('a person in none of the groups', async () => {
    alice({ groups: ['everyone'] });
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-no-group', /none of the groups that give access.*tachyon-helpdesk/);
  });

  it('the name of a local account (no takeover)', async () => {
    await t.addPrincipal('ACME\\alice', 'Local#Password2026', ['Read']);
    alice({ groups: ['tachyon-security', 'tachyon-admins'] });
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-local-name', /signs in with its own password/, { accountExpected: true });
    const local = await t.database.db
      .selectFrom('principals')
      .select(['source'])
      .where('user_key', '=', 'acme\\alice')
      .executeTakeFirstOrThrow();
    expect(local.source).toBe('local');
    const grants = await t.database.db
      .selectFrom('permission_grants')
      .innerJoin('principals', 'principals.id', 'permission_grants.principal_id')
      .select(['entity', 'permission'])
      .where('principals.user_key', '=', 'acme\\alice')
      .execute();
    expect(grants).toEqual([{ entity: 'Security', permission: 'Read' }]);
  });

  it('another person at the provider with the name of a bound account (no takeover by preferred_username)', async () => {
    alice();
    const first = await signIn();
    expect(first.exchange.statusCode).toBe(200);
    const aliceToken = parseBody(first.exchange, LoginResult).Token;
    provider.person = {
      sub: 'mallory-0666',
      claims: { preferred_username: 'alice', email: 'm@evil.example', groups: ['tachyon-security', 'tachyon-admins'] },
      amr: ['pwd', 'mfa'],
    };
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-subject-mismatch', /bound to another person at the identity provider/, {
      accountExpected: true,
      sessionsBefore: 1,
    });
    // Alice's account and her open session keep her own groups' permissions, and her history says why.
    const session = await t.call({ method: 'GET', url: `${AUTH}/Session`, token: aliceToken });
    expect(session.json()).toMatchObject({ Permissions: [{ Entity: 'Security', Permissions: ['Read'] }] });
    const refusals = await t.database.db
      .selectFrom('account_history')
      .select('detail')
      .where('action', '=', 'SignInFailed')
      .execute();
    expect(refusals.map((row) => row.detail)).toContain(
      'single sign-on refused: the name is bound to another person at the provider',
    );
  });

  it('an account kept before subjects were: bound to the first person who signs in as it, then refuses others', async () => {
    alice();
    expect((await signIn()).exchange.statusCode).toBe(200);
    await t.database.db
      .updateTable('principals')
      .set({ oidc_issuer: null, oidc_subject: null })
      .where('user_key', '=', 'acme\\alice')
      .execute();
    expect((await signIn()).exchange.statusCode).toBe(200);
    const bound = await t.database.db
      .selectFrom('principals')
      .select(['oidc_issuer', 'oidc_subject'])
      .where('user_key', '=', 'acme\\alice')
      .executeTakeFirstOrThrow();
    expect(bound).toEqual({ oidc_issuer: provider.issuer, oidc_subject: 'alice-0001' });
    provider.person = {
      sub: 'mallory-0666',
      claims: { preferred_username: 'alice', groups: ['tachyon-helpdesk'] },
      amr: [],
    };
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-subject-mismatch', /bound to another person/, {
      accountExpected: true,
      sessionsBefore: 2,
    });
  });

  it('a disabled account', async () => {
    alice();
    expect((await signIn()).exchange.statusCode).toBe(200);
    await t.database.db.updateTable('principals').set({ enabled: 0 }).where('user_key', '=', 'acme\\alice').execute();
    await t.database.db.deleteFrom('sessions').execute();
    const { callback } = await signInAtProvider();
    await expectRefused(callback, 'oidc-disabled', /is disabled here/, { accountExpected: true });
  });

  it('an error from the provider', async () => {
    alice();
    const start = await t.call({ method: 'GET', url: START });
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const callback = await t.call({
      method: 'GET',
      url: `/api/Consumer/Authentication/Oidc/Callback?error=access_denied&error_description=User+cancelled&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
      headers: { cookie: cookieOf(start.headers['set-cookie']) },
    });
    await expectRefused(callback, 'oidc-provider-error', /did not sign you in: User cancelled/);
  });

  it('an error whose description is an attack: the page gets the reason’s code, never the provider’s words', async () => {
    alice();
    const start = await t.call({ method: 'GET', url: `${START}?redirect=%2Fpush-users` });
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const attack = encodeURIComponent('<script>alert(1)</script>');
    const callback = await t.call({
      method: 'GET',
      url: `/api/Consumer/Authentication/Oidc/Callback?error=${attack}&error_description=${attack}&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
      headers: { cookie: cookieOf(start.headers['set-cookie']) },
    });
    await expectRefused(callback, 'oidc-provider-error', /<script>/);
    expect(callback.headers.location).toBe('/login?sso_error=oidc-provider-error&redirect=%2Fpush-users');
    expect(callback.body).not.toContain('<script>');
  });

  it('a start or callback while single sign-on is off: the sign-in page says so', async () => {
    await t.close();
    t = await createTestApp({ publicUrl: PUBLIC_URL });
    for (const url of [START, '/api/Consumer/Authentication/Oidc/Callback?code=x&state=y']) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/login?sso_error=oidc-off');
    }
  });
});

describe('a provider that is down', () => {
  it('refuses at sign-in with the time-out reason, and stops the start naming OIDC_ISSUER', async () => {
    const down = await TestOidcProvider.start({ redirectUris: [CALLBACK], postLogoutRedirectUris: [] });
    const app = await createTestApp(
      { publicUrl: PUBLIC_URL, oidc: oidcConfig({ issuer: down.issuer, clientId: TEST_CLIENT.id }) },
      { auditSink: audit },
    );
    try {
      const start = await app.call({ method: 'GET', url: START });
      await down.stop();
      const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
      const callback = await app.call({
        method: 'GET',
        url: `/api/Consumer/Authentication/Oidc/Callback?code=abc&state=${state}&iss=${encodeURIComponent(down.issuer)}`,
        headers: { cookie: cookieOf(start.headers['set-cookie']) },
      });
      expect(callback.statusCode).toBe(303);
      expect(callback.headers.location).toBe(
        '/login?sso_error=oidc-provider-unavailable&redirect=%2Fauthorization-requests',
      );
      expect(String(audit.of('sign-in').at(-1)?.tachyon?.details?.message)).toMatch(/did not answer in time/);
      expect(audit.of('sign-in').at(-1)?.event.reason).toBe('oidc-provider-unavailable');
    } finally {
      await app.close();
    }
    const failed = createTestApp({ publicUrl: PUBLIC_URL, oidc: oidcConfig({ issuer: down.issuer }) });
    await expect(failed).rejects.toBeInstanceOf(ConfigError);
    await expect(failed).rejects.toThrow(/^OIDC_ISSUER \(http:\/\/127\.0\.0\.1:\d+\).*could not be reached/);
  }, 30_000);

  it('stops the start when the issuer is not the provider’s own', async () => {
    const wrong = createTestApp({ publicUrl: PUBLIC_URL, oidc: oidcConfig({ issuer: `${provider.issuer}/other` }) });
    await expect(wrong).rejects.toThrow(/^OIDC_ISSUER/);
  });
});
