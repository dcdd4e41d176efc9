import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AccountList,
  DevicePushList,
  EnrollmentLink,
  LoginResult,
  PasskeyOptions,
  RecoveryCodes,
  Session,
  SignInMethodsReset,
} from '../../../shared/contract/index.ts';
import {
  approvedDevice,
  deviceCall,
  enrollDevice,
  PUSH_ORIGIN,
  RecordingPushSender,
} from '../../test/device-helpers.ts';
import { ADMIN, AUDITOR, createTestApp, expectProblem, HELPDESK, parseBody, type TestApp } from '../../test/harness.ts';
import { SoftAuthenticator } from '../../test/soft-authenticator.ts';

/**
 * The sign-in review, from the attacker's side: each test replays an attack on the step-up promise ("nobody reaches a
 * Write with a password alone, and what could take the system over needs a second factor proved within
 * STEP_UP_MINUTES") and shows it refused. SECOND_FACTOR=writers, STEP_UP_MINUTES=5; a session "lapses" when the clock
 * moves past them.
 */
const AUTH = '/api/Consumer/Authentication';
const ME = '/api/Admin/Accounts/Me';
const RITA = ['ACME\\rita', 'Rita keeps a long passphrase'] as const;

let t: TestApp;
let sender: RecordingPushSender;

beforeEach(async () => {
  sender = new RecordingPushSender();
  t = await createTestApp(
    {
      secondFactor: 'writers',
      stepUpMinutes: 5,
      vapidSubject: 'mailto:security@acme.example',
      pushAllowOrigins: [PUSH_ORIGIN],
    },
    { pushSender: sender },
  );
});
afterEach(() => t.close());

const post = (url: string, payload: object = {}, token?: string) =>
  t.call({ method: 'POST', url, payload, ...(token ? { token } : {}) });
const put = (url: string, payload: object, token: string) => t.call({ method: 'PUT', url, payload, token });
const passwordStep = (account: readonly [string, string]) => post(AUTH, { UserName: account[0], Password: account[1] });

/** A writer's first sign-in: the session that may only add a factor, made full (and fresh) by recovery codes. */
async function withRecoveryCodes(account: readonly [string, string]): Promise<{ token: string; codes: string[] }> {
  const session = parseBody(await passwordStep(account), LoginResult);
  expect(session.EnrolmentRequired).toBe(true);
  const made = await post(`${ME}/RecoveryCodes`, {}, session.Token);
  expect(made.statusCode, made.body).toBe(201);
  return { token: session.Token, codes: parseBody(made, RecoveryCodes).Codes };
}

const accountId = async (token: string, userName: string) =>
  parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token }), AccountList).find(
    (account) => account.UserName === userName,
  )?.Id as number;

describe('a phone the session enrols and approves itself is no step-up', () => {
  it('refuses a lapsed session its own enrolment link, its own enrolment and the approval of its own device', async () => {
    const helpdesk = await withRecoveryCodes(HELPDESK);
    // Made while the proof is fresh, to show the approval's own refusal below.
    const link = parseBody(await post('/api/Device/EnrollmentLinks', {}, helpdesk.token), EnrollmentLink);
    const waiting = await enrollDevice(t, { code: link.Code });
    t.clock.advanceMinutes(6);

    expectProblem(await post('/api/Device/EnrollmentLinks', {}, helpdesk.token), 403, 'step-up-required');
    const signedIn = await post('/api/Device/Enrollments', { DeviceType: 'Android' }, helpdesk.token);
    expectProblem(signedIn, 403, 'step-up-required');
    const approval = { RequestId: waiting.AuthorizationRequestId, RequestGuid: waiting.RequestGuid, Authorized: true };
    expectProblem(await post(`${AUTH}/AuthorizeDevice`, approval, helpdesk.token), 403, 'step-up-required');
    // Nothing was approved: the phone still waits, and no backdoor exists to step up with.
    expectProblem(await post(`${AUTH}/StepUp/DeviceCode`, {}, helpdesk.token), 409, 'no-active-device');
  });

  it('does not take a device approved by its own person as a step-up proof, even one approved with a fresh proof', async () => {
    const helpdesk = await withRecoveryCodes(HELPDESK);
    const link = parseBody(await post('/api/Device/EnrollmentLinks', {}, helpdesk.token), EnrollmentLink);
    const phone = await approvedDevice(t, helpdesk.token, { code: link.Code });
    t.clock.advanceMinutes(6);
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: helpdesk.token }), 403, 'forbidden');

    const refused = expectProblem(
      await post(`${AUTH}/StepUp/DeviceCode`, {}, helpdesk.token),
      409,
      'no-step-up-device',
    );
    expect(refused.detail).toMatch(/someone else approved it before this session/);
    const inbox = await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' });
    expect(parseBody(inbox, DevicePushList)).toEqual([]);
    // Signed in again with a second factor, the same phone still proves nothing: its own person approved it.
    const ticket = expectProblem(await passwordStep(HELPDESK), 401, 'second-factor-required').ticket as string;
    const again = parseBody(
      await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: helpdesk.codes[0] }),
      LoginResult,
    ).Token;
    t.clock.advanceMinutes(6);
    expectProblem(await post(`${AUTH}/StepUp/DeviceCode`, {}, again), 409, 'no-step-up-device');
  });
});

describe('creating, enabling and signing out accounts are step-up actions', () => {
  it('refuses a lapsed Accounts-Write session a new writer, an enabled account and a sign-out of another', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    const auditor = await accountId(admin.token, AUDITOR[0]);
    t.clock.advanceMinutes(6);

    const writer = {
      UserName: 'ACME\\mallory',
      Password: 'Mallory picks a long passphrase',
      Permissions: { Security: ['Read', 'Write'], Accounts: ['Read', 'Write'] },
    };
    expectProblem(await post('/api/Admin/Accounts', writer, admin.token), 403, 'step-up-required');
    // Disabling never waits for a proof; enabling again and signing someone out do.
    expect((await put(`/api/Admin/Accounts/${auditor}/Enabled`, { Enabled: false }, admin.token)).statusCode).toBe(200);
    expectProblem(
      await put(`/api/Admin/Accounts/${auditor}/Enabled`, { Enabled: true }, admin.token),
      403,
      'step-up-required',
    );
    expectProblem(await post(`/api/Admin/Accounts/${auditor}/SignOut`, {}, admin.token), 403, 'step-up-required');
    const password = { Password: 'A new long passphrase 2026' };
    expectProblem(
      await post(`/api/Admin/Accounts/${auditor}/Password`, password, admin.token),
      403,
      'step-up-required',
    );
    const list = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin.token });
    expect(list.body).not.toContain('mallory');

    expect((await post(`${AUTH}/StepUp`, { RecoveryCode: admin.codes[0] }, admin.token)).statusCode).toBe(200);
    expect((await post('/api/Admin/Accounts', writer, admin.token)).statusCode).toBe(201);
    expect((await put(`/api/Admin/Accounts/${auditor}/Enabled`, { Enabled: true }, admin.token)).statusCode).toBe(200);
  });
});

describe('a second factor is judged at every request, against the account’s permissions now', () => {
  it('makes a reader’s password-only session enrolment-only the moment it is granted Write', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    await t.addPrincipal(RITA[0], RITA[1], ['Read']);
    const rita = parseBody(await passwordStep(RITA), LoginResult);
    expect(rita.Successful).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/People', token: rita.Token })).statusCode).toBe(200);

    const id = await accountId(admin.token, RITA[0]);
    const grant = { Permissions: { Security: ['Read', 'Write'], Accounts: ['Read', 'Write'] } };
    expect((await put(`/api/Admin/Accounts/${id}/Permissions`, grant, admin.token)).statusCode).toBe(200);

    // The old session proved no second factor: now that the account needs one, it may only add (or prove) one.
    const session = parseBody(await t.call({ method: 'GET', url: `${AUTH}/Session`, token: rita.Token }), Session);
    expect(session.EnrolmentRequired).toBe(true);
    const account = { UserName: 'ACME\\rita2', Password: 'Another long passphrase', Permissions: grant.Permissions };
    expectProblem(await post('/api/Admin/Accounts', account, rita.Token), 403, 'second-factor-enrolment-required');
    expectProblem(
      await t.call({ method: 'GET', url: '/api/People', token: rita.Token }),
      403,
      'second-factor-enrolment-required',
    );
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Admin/Backup', token: rita.Token }),
      403,
      'second-factor-enrolment-required',
    );
  });
});

describe('Security Write plants no factor on an account administrator', () => {
  it('refuses the helpdesk an enrolment link for the admin, in words; a link for a reader still works', async () => {
    const helpdesk = await withRecoveryCodes(HELPDESK);
    const refused = expectProblem(
      await post(`/api/People/${encodeURIComponent(ADMIN[0])}/EnrollmentLinks`, {}, helpdesk.token),
      403,
      'accounts-write-required',
    );
    expect(refused.detail).toMatch(/holds Accounts permissions: only someone with Write on Accounts/);
    const reader = await post(`/api/People/${encodeURIComponent(AUDITOR[0])}/EnrollmentLinks`, {}, helpdesk.token);
    expect(reader.statusCode, reader.body).toBe(201);
  });

  it('removes the person’s devices with a reset of their sign-in methods, and asks a step-up to revive a Disabled one', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    const helpdesk = await withRecoveryCodes(HELPDESK);
    const link = parseBody(
      await post(`/api/People/${encodeURIComponent(AUDITOR[0])}/EnrollmentLinks`, {}, helpdesk.token),
      EnrollmentLink,
    );
    const phone = await approvedDevice(t, helpdesk.token, { code: link.Code });
    const status = (Status: number) =>
      put('/api/Consumer/PushMessageUsers', { Id: phone.pushUserId, Status }, helpdesk.token);
    expect((await status(2)).statusCode).toBe(200);
    t.clock.advanceMinutes(6);
    expectProblem(await status(1), 403, 'step-up-required');
    expect((await post(`${AUTH}/StepUp`, { RecoveryCode: helpdesk.codes[0] }, helpdesk.token)).statusCode).toBe(200);
    expect((await status(1)).statusCode).toBe(200);

    expect((await post(`${AUTH}/StepUp`, { RecoveryCode: admin.codes[0] }, admin.token)).statusCode).toBe(200);
    const auditor = await accountId(admin.token, AUDITOR[0]);
    const reset = await post(`/api/Admin/Accounts/${auditor}/SignInMethods/Reset`, {}, admin.token);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(parseBody(reset, SignInMethodsReset).DevicesRemoved).toBe(1);
    expectProblem(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device' }), 401, 'device-ended');
  });
});

describe('wrong second factors are counted per account', () => {
  it('does not forgive wrong recovery codes for a right password: the sixth in the window is refused', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    await t.call({ method: 'POST', url: `${ME}/SignOut`, token: admin.token });
    const wrong = async () => {
      const ticket = expectProblem(await passwordStep(ADMIN), 401, 'second-factor-required').ticket as string;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: `wrong-code${i}` })).statusCode);
      }
      return { ticket, statuses };
    };
    expect((await wrong()).statuses).toEqual([401, 401, 401, 401]);
    const second = await wrong();
    expect(second.statuses).toEqual([401, 429, 429, 429]);
    // Even the right code waits out the window now.
    expectProblem(
      await post(`${AUTH}/RecoveryCode`, { Ticket: second.ticket, Code: admin.codes[1] }),
      429,
      'too-many-requests',
    );
  });

  it('makes an address known only after a complete sign-in, never after the password step alone', async () => {
    await withRecoveryCodes(ADMIN);
    await t.database.db.deleteFrom('known_clients').execute();
    expectProblem(await passwordStep(ADMIN), 401, 'second-factor-required');
    expect(await t.database.db.selectFrom('known_clients').selectAll().execute()).toEqual([]);
  });
});

describe('recovery codes at rest', () => {
  it('are salted scrypt hashes, not a SHA-256 a backup can be swept with; a code stored the old way still works once', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    const rows = await t.database.db.selectFrom('recovery_codes').select(['code_hash', 'added_by']).execute();
    const sha = (code: string) => createHash('sha256').update(code.replace('-', '')).digest('hex');
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^scrypt\$/);
      expect(row.added_by).toBe(ADMIN[0]);
    }
    const stored = new Set(rows.map((row) => row.code_hash));
    expect(admin.codes.some((code) => stored.has(sha(code)))).toBe(false);

    const principal = await t.database.db
      .selectFrom('principals')
      .select('id')
      .where('user_name', '=', ADMIN[0])
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('recovery_codes')
      .values({ principal_id: principal.id, code_hash: sha('oldco-de123'), created_at: t.clock.stamp(), used_at: null })
      .execute();
    const ticket = expectProblem(await passwordStep(ADMIN), 401, 'second-factor-required').ticket as string;
    expect((await post(`${AUTH}/RecoveryCode`, { Ticket: ticket, Code: 'OLDCO-DE123' })).statusCode).toBe(200);
  });
});

describe('API accounts and passkeys', () => {
  it('lets an API account neither register a passkey nor sign in with one', async () => {
    const admin = await withRecoveryCodes(ADMIN);
    const created = await post(
      '/api/Admin/Accounts',
      { UserName: 'ACME\\deploy.bot', Kind: 'Api', Permissions: { Security: ['Read'], Accounts: [] } },
      admin.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const { Id, Secret } = created.json() as { Id: number; Secret: string };
    const bot = parseBody(await passwordStep(['ACME\\deploy.bot', Secret]), LoginResult).Token;
    expectProblem(await post(`${ME}/Passkeys/Options`, {}, bot), 403, 'api-account-passkey');

    // A passkey row of the API account's (as one registered before this was refused) opens no session.
    const authenticator = new SoftAuthenticator();
    const options = parseBody(await post(`${ME}/Passkeys/Options`, {}, admin.token), PasskeyOptions).Options;
    const added = await post(`${ME}/Passkeys`, { Name: 'Key', Response: authenticator.create(options) }, admin.token);
    expect(added.statusCode, added.body).toBe(201);
    await t.database.db.updateTable('passkeys').set({ principal_id: Id }).execute();
    const signIn = parseBody(await post(`${AUTH}/Passkey/Options`, {}), PasskeyOptions).Options;
    const answer = await post(`${AUTH}/Passkey`, { Response: authenticator.get(signIn) });
    expectProblem(answer, 401, 'passkey-refused');
    expect(answer.body).not.toContain('Token');
  });
});

describe('the remembered HTTP Basic login', () => {
  it('yields to a lock-out of its name and address', async () => {
    const basic = (password: string) =>
      t.call({
        method: 'GET',
        url: `${AUTH}/Session`,
        headers: { authorization: `Basic ${Buffer.from(`${AUDITOR[0]}:${password}`).toString('base64')}` },
      });
    expect((await basic(AUDITOR[1])).statusCode).toBe(200);
    const wrong: number[] = [];
    for (let i = 0; i < 6; i += 1) wrong.push((await basic(`wrong-${i}`)).statusCode);
    expect(wrong.at(-1)).toBe(429);
    expectProblem(await passwordStep(AUDITOR), 429, 'too-many-requests');
    expectProblem(await basic(AUDITOR[1]), 429, 'too-many-requests');
  });
});
