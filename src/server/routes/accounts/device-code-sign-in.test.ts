import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AccountHistoryList,
  AccountList,
  DeviceCodeSent,
  DevicePushList,
  EnrollmentLink,
  formatTimestamp,
  LoginResult,
  MAX_CODES_PER_WINDOW,
  MAX_TOKEN_ATTEMPTS,
  parseTimestamp,
  RecoveryCodes,
  ReportedCodeList,
  TOKEN_LIFETIME_MINUTES,
} from '../../../shared/contract/index.ts';
import { TICKET_MINUTES } from '../../domain/authentication/sign-in-tickets.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import {
  approvedDevice,
  deviceCall,
  PUSH_ORIGIN,
  RecordingPushSender,
  setPushUserStatus,
} from '../../test/device-helpers.ts';
import { ADMIN, createTestApp, expectProblem, parseBody, restartApp, type TestApp } from '../../test/harness.ts';

const AUTH = '/api/Consumer/Authentication';
const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;
const EVE = ['ACME\\eve', 'Eve keeps a long passphrase too'] as const;

let t: TestApp;
let audit: AuditLines;
let sender: RecordingPushSender;
/** A full session of the admin (recovery codes made at the first sign-in), who approves devices. */
let admin: string;
let adminCodes: string[];

const post = (url: string, payload: object = {}, token?: string) =>
  t.call({ method: 'POST', url, payload, ...(token ? { token } : {}) });

const passwordStep = (account: readonly [string, string]) => post(AUTH, { UserName: account[0], Password: account[1] });

beforeEach(async () => {
  audit = new AuditLines();
  sender = new RecordingPushSender();
  t = await createTestApp(
    {
      secondFactor: 'writers',
      stepUpMinutes: 5,
      // Room for a code's own lock (five wrong tries) inside the password's budget.
      loginFailuresPerUser: 8,
      vapidSubject: 'mailto:security@acme.example',
      pushAllowOrigins: [PUSH_ORIGIN],
    },
    { auditSink: audit, pushSender: sender },
  );
  sender.watch(t.database.db);
  admin = parseBody(await passwordStep(ADMIN), LoginResult).Token;
  adminCodes = parseBody(await post('/api/Admin/Accounts/Me/RecoveryCodes', {}, admin), RecoveryCodes).Codes;
  await t.addPrincipal(DANA[0], DANA[1], ['Read', 'Write']);
  await t.addPrincipal(EVE[0], EVE[1], ['Read', 'Write']);
});
afterEach(() => t.close());

/** The writer enrols a phone in the session that may only add a second factor; the admin approves it. */
async function activePhone(account: readonly [string, string], model = 'Pixel 9') {
  const session = parseBody(await passwordStep(account), LoginResult);
  expect(session.EnrolmentRequired).toBe(true);
  const link = await post('/api/Device/EnrollmentLinks', {}, session.Token);
  expect(link.statusCode, link.body).toBe(201);
  const phone = await approvedDevice(
    t,
    admin,
    { code: parseBody(link, EnrollmentLink).Code },
    { DeviceType: 'Android', Manufacturer: 'Google', Model: model, OsVersion: '16' },
  );
  return phone.DeviceToken;
}

async function ticketFor(account: readonly [string, string]): Promise<string> {
  return expectProblem(await passwordStep(account), 401, 'second-factor-required').ticket as string;
}

async function inbox(device: string) {
  const response = await deviceCall(t, device, { method: 'GET', url: '/api/Device/Pushes' });
  expect(response.statusCode, response.body).toBe(200);
  return parseBody(response, DevicePushList);
}

/** Sends a sign-in code for the ticket and reads it on the phone, as its person would. */
async function sendAndRead(ticket: string, device: string): Promise<{ code: string; instructionId: number }> {
  const sent = await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket });
  expect(sent.statusCode, sent.body).toBe(200);
  const [push] = await inbox(device);
  expect(push).toBeDefined();
  return { code: push?.Token as string, instructionId: push?.InstructionId as number };
}

const signIn = (ticket: string, code: string) => post(`${AUTH}/DeviceCode`, { Ticket: ticket, Code: code });
const failures = () =>
  audit.of('second-factor-failed').map((line) => [line.event.reason, line.tachyon?.details?.cause]);

describe('a code sent to one’s own Active devices, as the second step after the password', () => {
  it('is offered, sent to the phone as a dashboard sign-in code, and typed back opens a full session once', async () => {
    const phone = await activePhone(DANA);
    const problem = expectProblem(await passwordStep(DANA), 401, 'second-factor-required');
    expect(problem.methods).toEqual(['DeviceCode']);
    const ticket = problem.ticket as string;

    const sent = await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket }, undefined);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(parseBody(sent, DeviceCodeSent).Devices).toEqual(['Pixel 9']);
    const [push] = await inbox(phone);
    expect(push).toMatchObject({ Purpose: 'SignIn', Name: 'Dashboard sign-in', ClientAddress: '127.0.0.1' });
    const code = push?.Token as string;
    expect(code).toMatch(/^\d{6}$/);
    // The Consumer API's instruction endpoints never see a sign-in code: it cannot be answered or read there.
    const id = push?.InstructionId as number;
    const dana = parseBody(await post(`${AUTH}/DeviceCode`, { Ticket: ticket, Code: code }), LoginResult);
    expect(dana).toMatchObject({ UserName: DANA[0], Successful: true });
    expectProblem(await t.call({ method: 'GET', url: `/api/Instructions/${id}`, token: dana.Token }), 404, 'not-found');

    // Used: off the phone, and the ticket works once.
    expect(await inbox(phone)).toEqual([]);
    expectProblem(await signIn(ticket, code), 401, 'ticket-invalid');
    expect(audit.of('second-factor-verified').at(-1)?.event.reason).toBe('device-code');
    // A full session, not one that may only add a second factor.
    const list = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: dana.Token });
    expect(list.statusCode, list.body).toBe(200);
  });

  it('takes the code with the spaces the phone shows, and goes out by Web Push only after the commit', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    const { code } = await sendAndRead(ticket, phone);
    await sender.settled();
    expect(sender.sent.at(-1)?.message).toMatchObject({ dashboard: true, name: 'Dashboard sign-in' });
    const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
    expect((await signIn(ticket, spaced)).statusCode).toBe(200);
  });

  it('lasts no longer than the sign-in that asked for it: the answer, the phone and the push show the ticket’s end', async () => {
    const phone = await activePhone(DANA);
    const problem = expectProblem(await passwordStep(DANA), 401, 'second-factor-required');
    const ticket = problem.ticket as string;
    const ticketEnds = problem.ticketExpiresUtc as string;
    expect(ticketEnds).toBe(formatTimestamp(new Date(t.clock.now().getTime() + TICKET_MINUTES * 60_000)));
    expect(TICKET_MINUTES).toBeLessThan(TOKEN_LIFETIME_MINUTES);

    const sent = parseBody(await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket }), DeviceCodeSent);
    expect(sent.ExpiresUtc).toBe(ticketEnds);
    expect((await inbox(phone)).map((push) => push.ExpiresTimestampUtc)).toEqual([ticketEnds]);
    await sender.settled();
    expect(sender.sent.at(-1)?.message.expires).toEqual(parseTimestamp(ticketEnds));

    // A further code for the same sign-in ends with it too, with less time left.
    t.clock.advanceMinutes(TICKET_MINUTES - 2);
    const again = parseBody(await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket }), DeviceCodeSent);
    expect(again.ExpiresUtc).toBe(ticketEnds);
    const [push] = await inbox(phone);
    expect(push?.ExpiresTimestampUtc).toBe(ticketEnds);

    // At the ticket's end the phone shows the code no more, and it opens nothing.
    t.clock.advanceMinutes(2);
    expect(await inbox(phone)).toEqual([]);
    expectProblem(await signIn(ticket, push?.Token as string), 401, 'ticket-invalid');
  });

  it('refuses a wrong code (tries left), then locks the code; nothing opens and each try is audited', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    const { code } = await sendAndRead(ticket, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const opened = () => audit.of('sign-in').filter((line) => line.event.outcome === 'success').length;
    const before = opened();
    const first = expectProblem(await signIn(ticket, wrong), 401, 'device-code-invalid');
    expect(first.attemptsLeft).toBe(MAX_TOKEN_ATTEMPTS - 1);
    expect(first.detail).toContain('4 tries left');
    for (let i = 1; i < MAX_TOKEN_ATTEMPTS - 1; i++)
      expectProblem(await signIn(ticket, wrong), 401, 'device-code-invalid');
    expectProblem(await signIn(ticket, wrong), 401, 'device-code-expired');
    // Locked: even the right code no longer works, until a new one is sent.
    expect(expectProblem(await signIn(ticket, code), 401, 'device-code-expired').detail).toContain('send a new one');
    expect(failures()).toContainEqual(['device-code', 'device-code-invalid']);
    expect(opened()).toBe(before);
    const again = await sendAndRead(ticket, phone);
    expect((await signIn(ticket, again.code)).statusCode).toBe(200);
  });

  it('refuses a code of another sign-in or another person, an unknown or used ticket, and a person with no device', async () => {
    const phone = await activePhone(DANA);
    const evePhone = await activePhone(EVE, 'Galaxy S25');
    const first = await ticketFor(DANA);
    const { code: firstCode } = await sendAndRead(first, phone);
    const second = await ticketFor(DANA);
    // Another sign-in of the same person: no code was sent for it yet, then only its own works.
    expect(expectProblem(await signIn(second, firstCode), 401, 'device-code-invalid').detail).toContain(
      'No code was sent',
    );
    const { code: secondCode } = await sendAndRead(second, phone);
    if (secondCode !== firstCode) expectProblem(await signIn(second, firstCode), 401, 'device-code-invalid');
    // Another person's code, with their own ticket.
    const eve = await ticketFor(EVE);
    const { code: eveCode } = await sendAndRead(eve, evePhone);
    if (eveCode !== secondCode) expectProblem(await signIn(second, eveCode), 401, 'device-code-invalid');
    // Unknown and forged tickets.
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, { Ticket: 'forged' }), 401, 'ticket-invalid');
    expectProblem(await signIn('forged', secondCode), 401, 'ticket-invalid');
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, {}), 400, 'validation');
    expectProblem(await post(`${AUTH}/DeviceCode`, { Ticket: second, Code: '' }), 400, 'validation');
    // The right one for its own ticket still works, once.
    expect((await signIn(second, secondCode)).statusCode).toBe(200);
    expectProblem(await signIn(second, secondCode), 401, 'ticket-invalid');
    // A person without an Active device is not offered it, and cannot have a code sent.
    const adminStep = expectProblem(await passwordStep(ADMIN), 401, 'second-factor-required');
    expect(adminStep.methods).toEqual(['RecoveryCode']);
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, { Ticket: adminStep.ticket }), 409, 'no-active-device');
    expect(failures()).toContainEqual(['device-code', 'ticket-invalid']);
  });

  it('stops being offered once the device’s push user is no longer Active', async () => {
    await activePhone(DANA);
    const users = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: admin });
    const id = (users.json() as Array<{ Id: number; UserName: string }>).find((u) => u.UserName === DANA[0])?.Id;
    await setPushUserStatus(t, admin, id ?? null, 2);
    // No method left: the session may only add one.
    expect(parseBody(await passwordStep(DANA), LoginResult).EnrolmentRequired).toBe(true);
  });

  it('keeps to the caps: five codes for one sign-in, and five a person in ten minutes', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    for (let i = 0; i < MAX_CODES_PER_WINDOW; i++) await sendAndRead(ticket, phone);
    expect((await inbox(phone)).length).toBe(1); // a new code replaces the one before
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket }), 409, 'token-reissue-limit');
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, { Ticket: await ticketFor(DANA) }), 429, 'too-many-requests');
  });

  it('counts wrong codes against the password’s budgets: then 429, and the password step too', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    await sendAndRead(ticket, phone);
    for (let i = 0; i < t.config.loginFailuresPerUser; i++) {
      // New codes keep the code's own lock out of the way: the budget is what is counted here.
      if (i > 0 && i % (MAX_TOKEN_ATTEMPTS - 1) === 0) await sendAndRead(ticket, phone);
      const response = await signIn(ticket, 'abcdef');
      expect(response.statusCode, response.body).toBe(401);
    }
    expectProblem(await signIn(ticket, '123456'), 429, 'too-many-requests');
    expectProblem(await passwordStep(DANA), 429, 'too-many-requests');
  });

  it('“This wasn’t me” on the phone ends the code and the sign-in, and is reported like other codes', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    const { code, instructionId } = await sendAndRead(ticket, phone);
    const report = await deviceCall(t, phone, { method: 'POST', url: `/api/Device/Pushes/${instructionId}/Report` });
    expect(report.statusCode, report.body).toBe(204);
    expect(await inbox(phone)).toEqual([]);
    expectProblem(await signIn(ticket, code), 401, 'ticket-invalid');
    expectProblem(await post(`${AUTH}/DeviceCode/Send`, { Ticket: ticket }), 401, 'ticket-invalid');
    const reports = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: admin }),
      ReportedCodeList,
    );
    expect(reports[0]).toMatchObject({ UserName: DANA[0], InstructionName: 'Dashboard sign-in' });
  });
});

describe('the account’s history of a sign-in with a second step', () => {
  const historyOf = async (userName: string) => {
    const accounts = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
    const id = accounts.find((account) => account.UserName === userName)?.Id;
    const response = await t.call({ method: 'GET', url: `/api/Admin/Accounts/${id}/History`, token: admin });
    // Oldest first, actions and details only.
    return parseBody(response, AccountHistoryList)
      .map((entry) => [entry.Action, entry.Detail])
      .reverse();
  };

  it('records SignedIn when the session opens, and keeps a failed or abandoned second step visible as such', async () => {
    const phone = await activePhone(DANA);
    const abandoned = await ticketFor(DANA);
    await sendAndRead(abandoned, phone);
    const ticket = await ticketFor(DANA);
    const { code } = await sendAndRead(ticket, phone);
    expectProblem(await signIn(ticket, code === '000000' ? '111111' : '000000'), 401, 'device-code-invalid');
    expect((await signIn(ticket, code)).statusCode).toBe(200);
    const history = await historyOf(DANA[0]);
    expect(history.slice(-5)).toEqual([
      ['SecondStepAsked', 'methods: DeviceCode'],
      ['SecondStepAsked', 'methods: DeviceCode'],
      ['SecondFactorFailed', 'device-code: device-code-invalid'],
      ['SecondFactorVerified', 'device-code'],
      ['SignedIn', 'with a device code'],
    ]);
    // Before the device: a session that could only add a second factor, said so.
    expect(history).toContainEqual(['SignedIn', 'may only add a second factor']);
  });
});

describe('a device code as a step-up proof', () => {
  const stepUp = (token: string, proof: object) => post(`${AUTH}/StepUp`, proof, token);

  it('proves the person again in the sign-in session that asked only; a stale, wrong or sign-in code is refused', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    const { code: signInCode } = await sendAndRead(ticket, phone);
    const dana = parseBody(await signIn(ticket, signInCode), LoginResult).Token;
    t.clock.advanceMinutes(6);
    // The sign-in's code is no step-up proof, nor is one sent for another session.
    expectProblem(await stepUp(dana, { DeviceCode: signInCode }), 401, 'device-code-invalid');
    const sent = parseBody(await post(`${AUTH}/StepUp/DeviceCode`, {}, dana), DeviceCodeSent);
    expect(sent.Devices).toEqual(['Pixel 9']);
    const [push] = await inbox(phone);
    expect(push).toMatchObject({ Purpose: 'StepUp', Name: 'Dashboard: confirm it is you' });
    const code = push?.Token as string;
    // A code sent for another session of the same person.
    const secondTicket = await ticketFor(DANA);
    const second = parseBody(await signIn(secondTicket, (await sendAndRead(secondTicket, phone)).code), LoginResult);
    await post(`${AUTH}/StepUp/DeviceCode`, {}, second.Token);
    const [otherSession] = await inbox(phone);
    expect(otherSession?.Token).toBeDefined();
    if (otherSession?.Token !== code) {
      expectProblem(await stepUp(dana, { DeviceCode: otherSession?.Token as string }), 401, 'device-code-invalid');
    }
    expectProblem(await stepUp(dana, { DeviceCode: code, RecoveryCode: adminCodes[0] }), 400, 'validation');

    const done = await stepUp(dana, { DeviceCode: code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ Method: 'DeviceCode' });
    expect(audit.of('step-up').at(-1)?.event.reason).toBe('device-code');
    expectProblem(await stepUp(dana, { DeviceCode: code }), 401, 'device-code-expired');

    // A code left unused past its time.
    await post(`${AUTH}/StepUp/DeviceCode`, {}, dana);
    const [late] = await inbox(phone);
    t.clock.advanceMinutes(TOKEN_LIFETIME_MINUTES);
    expectProblem(await stepUp(dana, { DeviceCode: late?.Token as string }), 401, 'device-code-expired');
  });

  it('lasts no longer than the session it was sent for, when that ends first', async () => {
    const phone = await activePhone(DANA);
    const ticket = await ticketFor(DANA);
    const dana = parseBody(await signIn(ticket, (await sendAndRead(ticket, phone)).code), LoginResult).Token;
    // The same service configured with sessions that end after four idle minutes.
    const short = await restartApp(t, { sessionIdleMinutes: 4 });
    try {
      const sessionEnds = formatTimestamp(new Date(t.clock.now().getTime() + 4 * 60_000));
      const response = await short.inject({
        method: 'POST',
        url: `${AUTH}/StepUp/DeviceCode`,
        payload: {},
        headers: { authorization: `Bearer ${dana}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, DeviceCodeSent).ExpiresUtc).toBe(sessionEnds);
      expect((await inbox(phone)).map((push) => push.ExpiresTimestampUtc)).toEqual([sessionEnds]);
    } finally {
      await short.close();
    }
  });
});
