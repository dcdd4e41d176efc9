import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AccountHistoryList,
  AccountList,
  LoginResult,
  Passkey,
  PasskeyOptions,
  RecoveryCodes,
  SignInMethods,
  SignInMethodsReset,
} from '../../../shared/contract/index.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { ADMIN, AUDITOR, createTestApp, expectProblem, HELPDESK, parseBody, type TestApp } from '../../test/harness.ts';
import { SoftAuthenticator } from '../../test/soft-authenticator.ts';

const AUTH = '/api/Consumer/Authentication';
const ME = '/api/Admin/Accounts/Me';

let t: TestApp;
let audit: AuditLines;
let authenticator: SoftAuthenticator;

beforeEach(async () => {
  audit = new AuditLines();
  authenticator = new SoftAuthenticator();
  t = await createTestApp({ secondFactor: 'writers', stepUpMinutes: 5 }, { auditSink: audit });
});
afterEach(() => t.close());

const post = (url: string, payload: object = {}, token?: string) =>
  t.call({ method: 'POST', url, payload, ...(token ? { token } : {}) });

const passwordStep = (account: readonly [string, string]) => post(AUTH, { UserName: account[0], Password: account[1] });

/** A session of a writer who has no second factor yet: it can only add one. */
async function enrolmentSession(account: readonly [string, string] = ADMIN): Promise<string> {
  const response = await passwordStep(account);
  expect(response.statusCode, response.body).toBe(200);
  const body = parseBody(response, LoginResult);
  expect(body.EnrolmentRequired).toBe(true);
  expect(body.Successful).toBe(false);
  return body.Token;
}

async function addPasskey(token: string, name = 'Laptop', answer = {}): Promise<Passkey> {
  const options = parseBody(await post(`${ME}/Passkeys/Options`, {}, token), PasskeyOptions).Options;
  const response = await post(`${ME}/Passkeys`, { Name: name, Response: authenticator.create(options, answer) }, token);
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, Passkey);
}

async function signInOptions(ticket?: string) {
  const response = await post(`${AUTH}/Passkey/Options`, ticket ? { Ticket: ticket } : {});
  expect(response.statusCode, response.body).toBe(200);
  return parseBody(response, PasskeyOptions).Options;
}

/** The ticket a writer with a second factor gets for the right password. */
async function ticketFor(account: readonly [string, string] = ADMIN): Promise<string> {
  const problem = expectProblem(await passwordStep(account), 401, 'second-factor-required');
  return problem.ticket as string;
}

/** A full session of the admin, whose first passkey is made along the way. */
async function adminWithPasskey(): Promise<string> {
  const token = await enrolmentSession();
  await addPasskey(token);
  return token;
}

describe('passkeys', () => {
  it('adds a passkey, lists it without a secret, and signs in with it alone (one step, a full session)', async () => {
    const token = await adminWithPasskey();
    const methods = parseBody(await t.call({ method: 'GET', url: `${ME}/SignInMethods`, token }), SignInMethods);
    expect(methods.Passkeys).toEqual([{ Id: 1, Name: 'Laptop', CreatedUtc: t.clock.stamp(), LastUsedUtc: null }]);
    expect(methods.SecondFactorRequired).toBe(true);
    expect(methods.PasskeysUnavailable).toBeNull();
    expect(audit.of('second-factor-added')[0]?.event.reason).toBe('passkey');

    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]); // discoverable: no name typed
    expect(options.userVerification).toBe('required');
    const response = await post(`${AUTH}/Passkey`, { Response: authenticator.get(options) });
    expect(response.statusCode, response.body).toBe(200);
    const session = parseBody(response, LoginResult);
    expect(session).toMatchObject({ UserName: ADMIN[0], Successful: true });
    expect(session.EnrolmentRequired).toBeUndefined();
    // A full session: it reaches the accounts, and a step-up action right away.
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: session.Token })).statusCode).toBe(200);
    const after = parseBody(
      await t.call({ method: 'GET', url: `${ME}/SignInMethods`, token: session.Token }),
      SignInMethods,
    );
    expect(after.Passkeys[0]?.LastUsedUtc).toBe(t.clock.stamp());
    expect(audit.of('second-factor-verified').at(-1)?.event.reason).toBe('passkey');
    expect(audit.of('sign-in').at(-1)?.event.outcome).toBe('success');
  });

  it('renames and removes a passkey; an unknown or another person’s passkey is 404', async () => {
    const token = await adminWithPasskey();
    await addPasskey(token, 'Phone');
    const renamed = await t.call({ method: 'PUT', url: `${ME}/Passkeys/2`, token, payload: { Name: 'Work phone' } });
    expect(parseBody(renamed, Passkey).Name).toBe('Work phone');
    expectProblem(
      await t.call({ method: 'PUT', url: `${ME}/Passkeys/99`, token, payload: { Name: 'x' } }),
      404,
      'not-found',
    );
    const helpdesk = await t.login(...HELPDESK);
    expectProblem(await t.call({ method: 'DELETE', url: `${ME}/Passkeys/1`, token: helpdesk }), 404, 'not-found');
    expect((await t.call({ method: 'DELETE', url: `${ME}/Passkeys/2`, token })).statusCode).toBe(204);
    expect(audit.of('second-factor-removed')).toHaveLength(1);
  });

  it('refuses an assertion made for another origin or another RP ID, and changes nothing', async () => {
    await adminWithPasskey();
    audit.clear();
    for (const answer of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:9999' },
      { rpId: 'evil.example' },
    ]) {
      const options = await signInOptions();
      const problem = expectProblem(
        await post(`${AUTH}/Passkey`, { Response: authenticator.get(options, answer) }),
        401,
        'passkey-refused',
      );
      expect(problem.detail).not.toContain('evil');
    }
    expect(audit.of('second-factor-failed')).toHaveLength(3);
    expect(audit.of('sign-in').filter((r) => r.event.outcome === 'success')).toHaveLength(0);
  });

  it('refuses a replayed answer and an expired challenge', async () => {
    await adminWithPasskey();
    const options = await signInOptions();
    const answer = authenticator.get(options);
    expect((await post(`${AUTH}/Passkey`, { Response: answer })).statusCode).toBe(200);
    expectProblem(await post(`${AUTH}/Passkey`, { Response: answer }), 401, 'passkey-refused');

    const late = await signInOptions();
    t.clock.advanceMinutes(6);
    expectProblem(await post(`${AUTH}/Passkey`, { Response: authenticator.get(late) }), 401, 'passkey-refused');
  });

  it('refuses a passkey whose signature counter went backwards, audits it, and keeps the counter', async () => {
    await adminWithPasskey();
    expect(
      (await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions(), { counter: 5 }) }))
        .statusCode,
    ).toBe(200);
    const problem = expectProblem(
      await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions(), { counter: 3 }) }),
      401,
      'passkey-refused',
    );
    expect(problem.detail).toContain('counter went backwards');
    expect(audit.of('second-factor-failed').at(-1)?.tachyon?.details?.cause).toBe('passkey-counter-backwards');
    // The stored counter is still 5: 6 works, 5 again does not.
    expectProblem(
      await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions(), { counter: 5 }) }),
      401,
      'passkey-refused',
    );
    expect(
      (await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions(), { counter: 6 }) }))
        .statusCode,
    ).toBe(200);
  });

  it('counts failed assertions against the sign-in budgets (then 429 even for a right one)', async () => {
    await adminWithPasskey();
    // loginFailuresPerUser (5) wrong answers from one address for one account.
    for (let i = 0; i < t.config.loginFailuresPerUser; i++) {
      const options = await signInOptions();
      expectProblem(
        await post(`${AUTH}/Passkey`, { Response: authenticator.get(options, { origin: 'https://evil.example' }) }),
        401,
        'passkey-refused',
      );
    }
    expectProblem(
      await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions()) }),
      429,
      'too-many-requests',
    );
  });

  it('says passkeys need a name when the service is served on an IP address', async () => {
    await t.close();
    t = await createTestApp({ secondFactor: 'writers', publicUrl: 'http://127.0.0.1:8080' }, { auditSink: audit });
    const problem = expectProblem(await post(`${AUTH}/Passkey/Options`), 409, 'passkeys-unavailable');
    expect(problem.detail).toContain('IP address');
    const token = await enrolmentSession();
    const methods = parseBody(await t.call({ method: 'GET', url: `${ME}/SignInMethods`, token }), SignInMethods);
    expect(methods.PasskeysUnavailable).toContain('PUBLIC_URL');
  });
});

describe('the second step after a password (SECOND_FACTOR=writers)', () => {
  it('answers a writer’s right password with 401 second-factor-required, a ticket and the methods; not Successful', async () => {
    await adminWithPasskey();
    const problem = expectProblem(await passwordStep(ADMIN), 401, 'second-factor-required');
    expect(problem.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(problem.methods).toEqual(['Passkey']);
    expect(problem.ticketExpiresUtc).toBeTruthy();
    expect(problem.detail).not.toContain('Token');
    // A reader needs none: a full session with the password.
    const reader = parseBody(await passwordStep(AUDITOR), LoginResult);
    expect(reader.Successful).toBe(true);
  });

  it('finishes with one of the person’s passkeys and the ticket; the ticket works once', async () => {
    await adminWithPasskey();
    const ticket = await ticketFor();
    const options = await signInOptions(ticket);
    expect(options.allowCredentials).toHaveLength(1);
    const response = await post(`${AUTH}/Passkey`, { Response: authenticator.get(options), Ticket: ticket });
    expect(response.statusCode, response.body).toBe(200);
    expect(parseBody(response, LoginResult).Successful).toBe(true);
    expectProblem(await post(`${AUTH}/Passkey/Options`, { Ticket: ticket }), 401, 'ticket-invalid');
    expectProblem(
      await post(`${AUTH}/Passkey`, { Response: authenticator.get(await signInOptions()), Ticket: ticket }),
      401,
      'ticket-invalid',
    );
  });

  it('refuses an expired ticket, and another person’s passkey with a ticket', async () => {
    await adminWithPasskey();
    const ticket = await ticketFor();
    t.clock.advanceMinutes(6);
    expectProblem(await post(`${AUTH}/Passkey/Options`, { Ticket: ticket }), 401, 'ticket-invalid');

    // The helpdesk person (a writer too) has a passkey of their own on the same authenticator.
    const helpdesk = await enrolmentSession(HELPDESK);
    await addPasskey(helpdesk, 'Helpdesk key');
    const adminTicket = await ticketFor(ADMIN);
    const helpdeskKey = authenticator.credentials[1]?.id as string;
    const options = await signInOptions(adminTicket);
    expectProblem(
      await post(`${AUTH}/Passkey`, {
        Response: authenticator.get(options, { credentialId: helpdeskKey }),
        Ticket: adminTicket,
      }),
      401,
      'passkey-refused',
    );
    // A ticket from another person's password step does not sign the passkey's owner in either.
    const helpdeskTicket = await ticketFor(HELPDESK);
    const adminOptions = await signInOptions(adminTicket);
    expectProblem(
      await post(`${AUTH}/Passkey`, { Response: authenticator.get(adminOptions), Ticket: helpdeskTicket }),
      401,
      'passkey-refused',
    );
  });

  it('gives a writer without a second factor a session that can only add one, then a full one', async () => {
    const token = await enrolmentSession();
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts', token }),
      403,
      'second-factor-enrolment-required',
    );
    expect((await t.call({ method: 'GET', url: `${AUTH}/Session`, token })).json()).toMatchObject({
      EnrolmentRequired: true,
    });
    const codes = parseBody(await post(`${ME}/RecoveryCodes`, {}, token), RecoveryCodes).Codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${AUTH}/Session`, token })).json().EnrolmentRequired).toBeUndefined();
    // The Accounts page: each account's kinds of method, and the writers without one marked.
    const accounts = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token }), AccountList);
    const byName = (name: string) => accounts.find((account) => account.UserName === name);
    expect(byName(ADMIN[0])).toMatchObject({ SignInMethods: ['RecoveryCode'], SecondFactorMissing: false });
    expect(byName(HELPDESK[0])).toMatchObject({ SignInMethods: [], SecondFactorMissing: true });
    expect(byName(AUDITOR[0])).toMatchObject({ SecondFactorMissing: false });
  });

  it('refuses Basic credentials of a writer: a password alone reaches nothing', async () => {
    await adminWithPasskey();
    const basic = `Basic ${Buffer.from(`${ADMIN[0]}:${ADMIN[1]}`).toString('base64')}`;
    const response = await t.call({ method: 'GET', url: '/api/Admin/Accounts', headers: { authorization: basic } });
    expectProblem(response, 401, 'second-factor-required');
  });
});

describe('recovery codes', () => {
  async function codesOfAdmin(): Promise<string[]> {
    const token = await enrolmentSession();
    return parseBody(await post(`${ME}/RecoveryCodes`, {}, token), RecoveryCodes).Codes;
  }

  it('finish the second step once each, say how many are left, and are audited', async () => {
    const codes = await codesOfAdmin();
    const ticket = await ticketFor();
    const response = await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: (codes[0] as string).toUpperCase() });
    expect(response.statusCode, response.body).toBe(200);
    expect(parseBody(response, LoginResult)).toMatchObject({ Successful: true, RecoveryCodesLeft: 9 });
    expect(audit.of('recovery-code-used')).toHaveLength(1);
    // Used: refused with a new ticket, and nothing changes.
    expectProblem(
      await post(`${AUTH}/RecoveryCode`, { Ticket: await ticketFor(), Code: codes[0] }),
      401,
      'recovery-code-invalid',
    );
    expectProblem(
      await post(`${AUTH}/RecoveryCode`, { Ticket: await ticketFor(), Code: 'aaaaa-bbbbb' }),
      401,
      'recovery-code-invalid',
    );
    const next = await post(`${AUTH}/RecoveryCode`, { Ticket: await ticketFor(), Code: codes[1] });
    const token = parseBody(next, LoginResult).Token;
    const history = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts/1/History', token }),
      AccountHistoryList,
    );
    expect(history.map((entry) => entry.Action)).toContain('RecoveryCodeUsed');
    expect(history.map((entry) => entry.Action)).toContain('SecondFactorFailed');
  });

  it('regenerating replaces them all', async () => {
    const token = await enrolmentSession();
    const first = parseBody(await post(`${ME}/RecoveryCodes`, {}, token), RecoveryCodes).Codes;
    const second = parseBody(await post(`${ME}/RecoveryCodes`, {}, token), RecoveryCodes).Codes;
    expect(second).not.toEqual(first);
    expectProblem(
      await post(`${AUTH}/RecoveryCode`, { Ticket: await ticketFor(), Code: first[0] }),
      401,
      'recovery-code-invalid',
    );
    expect((await post(`${AUTH}/RecoveryCode`, { Ticket: await ticketFor(), Code: second[0] })).statusCode).toBe(200);
  });

  it('wrong codes spend the password’s budget: then 429, and the right one waits too', async () => {
    const codes = await codesOfAdmin();
    const ticket = await ticketFor();
    for (let i = 0; i < t.config.loginFailuresPerUser; i++) {
      expectProblem(
        await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: `wrong-${i}` }),
        401,
        'recovery-code-invalid',
      );
    }
    expectProblem(await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: codes[0] }), 429, 'too-many-requests');
    // The password step from that address is locked out as well.
    expectProblem(await passwordStep(ADMIN), 429, 'too-many-requests');
  });
});

describe('step-up', () => {
  const permissions = (token: string) =>
    t.call({
      method: 'PUT',
      url: '/api/Admin/Accounts/3/Permissions',
      token,
      payload: { Permissions: { Security: ['Read'], Accounts: [] } },
    });

  it('lets a step-up action through within STEP_UP_MINUTES of the second factor, and refuses a stale proof', async () => {
    const token = await adminWithPasskey();
    expect((await permissions(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(5);
    expectProblem(await permissions(token), 403, 'step-up-required');
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Backup', token }), 403, 'step-up-required');

    const options = parseBody(await post(`${AUTH}/StepUp/Options`, {}, token), PasskeyOptions).Options;
    const stepUp = await post(`${AUTH}/StepUp`, { Passkey: authenticator.get(options) }, token);
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    expect(stepUp.json()).toMatchObject({ Method: 'Passkey' });
    expect(audit.of('step-up')).toHaveLength(1);
    expect((await permissions(token)).statusCode).toBe(200);
  });

  it('refuses a step-up with another person’s passkey or a wrong recovery code, and the action stays refused', async () => {
    const token = await adminWithPasskey();
    const helpdesk = await enrolmentSession(HELPDESK);
    await addPasskey(helpdesk, 'Helpdesk key');
    t.clock.advanceMinutes(6);
    const options = parseBody(await post(`${AUTH}/StepUp/Options`, {}, token), PasskeyOptions).Options;
    const other = authenticator.get(options, { credentialId: authenticator.credentials[1]?.id as string });
    expectProblem(await post(`${AUTH}/StepUp`, { Passkey: other }, token), 401, 'passkey-refused');
    expectProblem(await post(`${AUTH}/StepUp`, { RecoveryCode: 'aaaaa-bbbbb' }, token), 401, 'recovery-code-invalid');
    expectProblem(await post(`${AUTH}/StepUp`, {}, token), 400, 'validation');
    expectProblem(await permissions(token), 403, 'step-up-required');
  });

  it('is needed to create any account or rotate an API account’s secret; an API account then signs in with no second factor', async () => {
    const token = await adminWithPasskey();
    const api = {
      UserName: 'ACME\\deploy.bot',
      Kind: 'Api',
      Permissions: { Security: ['Read', 'Write'], Accounts: [] },
    };
    const created = await post('/api/Admin/Accounts', api, token);
    expect(created.statusCode, created.body).toBe(201);
    const { Id, Secret } = created.json() as { Id: number; Secret: string };
    // A writer's password alone reaches nothing; an API account's generated secret does (scripts, the SDK).
    const signIn = await post(AUTH, { UserName: api.UserName, Password: Secret });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(parseBody(signIn, LoginResult).Successful).toBe(true);

    t.clock.advanceMinutes(6);
    const second = { ...api, UserName: 'ACME\\report.bot' };
    expectProblem(await post('/api/Admin/Accounts', second, token), 403, 'step-up-required');
    expectProblem(await post(`/api/Admin/Accounts/${Id}/Secret`, {}, token), 403, 'step-up-required');
    // Nothing changed: the old secret still signs in, and no second account was made.
    expect((await post(AUTH, { UserName: api.UserName, Password: Secret })).statusCode).toBe(200);
    const list = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token });
    expect(list.body).not.toContain('report.bot');
    // A person's account too: a lapsed session must not make a writer whose first sign-in adds its own factor.
    const person = { UserName: 'ACME\\jo', Password: 'a long enough passphrase 2026', Kind: 'Person' };
    expectProblem(await post('/api/Admin/Accounts', person, token), 403, 'step-up-required');
  });

  it('is needed to remove one’s own last passkey, and to add a method once one has a second factor', async () => {
    const token = await adminWithPasskey();
    t.clock.advanceMinutes(6);
    expectProblem(await t.call({ method: 'DELETE', url: `${ME}/Passkeys/1`, token }), 403, 'step-up-required');
    expectProblem(await post(`${ME}/Passkeys/Options`, {}, token), 403, 'step-up-required');
    expectProblem(await post(`${ME}/RecoveryCodes`, {}, token), 403, 'step-up-required');
  });

  it('is off with SECOND_FACTOR=off (an operator’s choice of passwords alone)', async () => {
    await t.close();
    t = await createTestApp({ secondFactor: 'off' }, { auditSink: audit });
    const token = await t.login(...ADMIN);
    t.clock.advanceMinutes(20);
    expect((await permissions(token)).statusCode).toBe(200);
  });
});

describe('reset of sign-in methods by an account administrator', () => {
  it('removes the person’s passkeys and recovery codes and ends their sessions; audited; needs step-up', async () => {
    const admin = await adminWithPasskey();
    const helpdesk = await enrolmentSession(HELPDESK);
    await addPasskey(helpdesk, 'Helpdesk key');
    await post(`${ME}/RecoveryCodes`, {}, helpdesk);
    const helpdeskId = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }),
      AccountList,
    ).find((account) => account.UserName === HELPDESK[0])?.Id as number;
    const reset = `/api/Admin/Accounts/${helpdeskId}/SignInMethods/Reset`;
    expectProblem(await post('/api/Admin/Accounts/9999/SignInMethods/Reset', {}, admin), 404, 'not-found');
    expectProblem(await post(reset, {}, helpdesk), 403, 'forbidden');
    t.clock.advanceMinutes(6);
    expectProblem(await post(reset, {}, admin), 403, 'step-up-required');
    const options = parseBody(await post(`${AUTH}/StepUp/Options`, {}, admin), PasskeyOptions).Options;
    expect((await post(`${AUTH}/StepUp`, { Passkey: authenticator.get(options) }, admin)).statusCode).toBe(200);
    const done = await post(reset, {}, admin);
    expect(done.statusCode, done.body).toBe(200);
    expect(parseBody(done, SignInMethodsReset)).toEqual({
      PasskeysRemoved: 1,
      RecoveryCodesRemoved: 10,
      DevicesRemoved: 0,
    });

    expectProblem(await t.call({ method: 'GET', url: `${AUTH}/Session`, token: helpdesk }), 401, 'unauthenticated');
    const again = await enrolmentSession(HELPDESK);
    const methods = parseBody(await t.call({ method: 'GET', url: `${ME}/SignInMethods`, token: again }), SignInMethods);
    expect(methods).toMatchObject({ Passkeys: [], RecoveryCodesLeft: 0 });
    expect(audit.of('sign-in-methods-reset')[0]).toMatchObject({ user: { name: ADMIN[0] } });
  });
});
