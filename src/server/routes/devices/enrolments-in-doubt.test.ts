import { beforeEach, describe, expect, it } from 'vitest';
import { Account, EnrollmentLink, HistoryList, Instruction } from '../../../shared/contract/index.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { decide, deviceCall, deviceStateOf, enrollDevice } from '../../test/device-helpers.ts';
import { expectProblem, parseBody, useTestApp } from '../../test/harness.ts';

/**
 * When a person's account is in doubt (a code they did not ask for, a password reset or change, Sign out everywhere,
 * the account disabled), whoever knew the password may have started enrolling a phone of their own: an unused link,
 * or a request waiting in the queue. Both end then, so an administrator never approves the intruder's phone.
 */
const ADMIN = ['ACME\\admin', 'Quiet lantern harbour 42'] as const;
const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;

describe('enrolments under way end when the account is in doubt', () => {
  const lines = new AuditLines();
  const { t } = useTestApp({
    config: { demo: false, adminUserName: ADMIN[0], adminPassword: ADMIN[1] },
    options: { auditSink: lines },
  });
  let admin: string;
  let dana: string;
  let danaId: number;
  beforeEach(async () => {
    admin = await t.login(...ADMIN);
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: DANA[0], Password: DANA[1] },
    });
    expect(created.statusCode, created.body).toBe(201);
    danaId = parseBody(created, Account).Id;
    dana = await t.login(...DANA);
  });

  const newLink = async (token: string) => {
    const response = await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token });
    expect(response.statusCode, response.body).toBe(201);
    return parseBody(response, EnrollmentLink);
  };

  /** An intruder's enrolments: one through a link not used yet, one waiting in the queue. */
  async function intruderEnrolments(token: string) {
    const link = await newLink(token);
    const waiting = await enrollDevice(t, { token }, { DeviceType: 'Android', Model: 'Intruder phone' });
    return { link, waiting };
  }

  async function expectEnded(
    { link, waiting }: Awaited<ReturnType<typeof intruderEnrolments>>,
    reason: RegExp,
    decidedBy: string,
  ) {
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Device/Enrollments',
        payload: { DeviceType: 'iOS', EnrollmentCode: link.Code },
      }),
      401,
      'enrollment-code-invalid',
    );
    const state = await deviceStateOf(t, waiting.DeviceToken);
    expect(state).toMatchObject({ RequestStatus: 'Rejected', Comment: expect.stringMatching(reason) });
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/AuthorizeDevice',
        token: admin,
        payload: { RequestId: waiting.AuthorizationRequestId, RequestGuid: waiting.RequestGuid, Authorized: true },
      }),
      409,
      'already-decided',
    );
    const history = parseBody(
      await t.call({
        method: 'GET',
        url: `/api/Consumer/History?entity=AuthorizationRequest&id=${waiting.AuthorizationRequestId}`,
        token: admin,
      }),
      HistoryList,
    );
    expect(history.at(-1)).toMatchObject({ Action: 'Decided', To: 'Rejected', ChangedBy: decidedBy });
  }

  it('"This wasn\'t me" from the person\'s phone', async () => {
    const phone = await enrollDevice(t, { token: dana });
    await decide(t, admin, phone);
    const intruder = await intruderEnrolments(dana);
    const instruction = parseBody(
      await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name: 'Not mine' } }),
      Instruction,
    );
    const report = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Pushes/${instruction.Id}/Report`,
    });
    expect(report.statusCode, report.body).toBe(204);
    await expectEnded(intruder, /This wasn't me/, DANA[0]);
    // The phone that reported stays approved.
    expect((await deviceStateOf(t, phone.DeviceToken)).RequestStatus).toBe('Authorized');
  });

  it('a password reset', async () => {
    const intruder = await intruderEnrolments(dana);
    const reset = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${danaId}/Password`,
      token: admin,
      payload: { Password: 'A brand new long passphrase' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectEnded(intruder, /password was reset/, ADMIN[0]);
  });

  it("the person's own password change (their session goes on)", async () => {
    const intruder = await intruderEnrolments(dana);
    const changed = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts/Me/Password',
      token: dana,
      payload: { OldPassword: DANA[1], NewPassword: 'Dana chose a new long passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    await expectEnded(intruder, /password was changed/, DANA[0]);
    // A link made after the change works: only what was under way ended.
    const after = await newLink(dana);
    const enrolled = await t.call({
      method: 'POST',
      url: '/api/Device/Enrollments',
      payload: { DeviceType: 'iOS', EnrollmentCode: after.Code },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
  });

  it('Sign out everywhere', async () => {
    const intruder = await intruderEnrolments(dana);
    const out = await t.call({ method: 'POST', url: `/api/Admin/Accounts/${danaId}/SignOut`, token: admin });
    expect(out.statusCode, out.body).toBe(200);
    await expectEnded(intruder, /signed out everywhere/, ADMIN[0]);
  });

  it('the account disabled (its devices end too)', async () => {
    const intruder = await intruderEnrolments(dana);
    const disabled = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${danaId}/Enabled`,
      token: admin,
      payload: { Enabled: false },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    // The waiting device's credential ended with the account; the queue no longer offers its request.
    expectProblem(
      await deviceCall(t, intruder.waiting.DeviceToken, { method: 'GET', url: '/api/Device' }),
      401,
      'device-ended',
    );
    const enabled = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${danaId}/Enabled`,
      token: admin,
      payload: { Enabled: true },
    });
    expect(enabled.statusCode).toBe(200);
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Device/Enrollments',
        payload: { DeviceType: 'iOS', EnrollmentCode: intruder.link.Code },
      }),
      401,
      'enrollment-code-invalid',
    );
    const pending = await t.call({
      method: 'GET',
      url: '/api/Consumer/Authentication/AuthorizationRequests',
      token: admin,
    });
    expect((pending.json() as Array<{ Id: number }>).map((request) => request.Id)).not.toContain(
      intruder.waiting.AuthorizationRequestId,
    );
  });

  it('enrolment links: at most 10 an hour per person, each audited; a link enrolment names its person', async () => {
    lines.clear();
    const links = [];
    for (let i = 0; i < 10; i += 1) links.push(await newLink(dana));
    expectProblem(
      await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token: dana }),
      429,
      'too-many-requests',
    );
    const made = lines.of('enrollment-link-created');
    expect(made).toHaveLength(10);
    expect(made[0]).toMatchObject({ event: { outcome: 'success' }, user: { name: DANA[0] } });
    // Another person is not held back by Dana's links.
    expect((await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token: admin })).statusCode).toBe(201);

    const enrolled = await t.call({
      method: 'POST',
      url: '/api/Device/Enrollments',
      payload: { DeviceType: 'iOS', EnrollmentCode: links[0]?.Code },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    expect(lines.of('device-enrolled').at(-1)).toMatchObject({
      event: { outcome: 'success' },
      user: { name: DANA[0] },
      tachyon: { details: { by: 'enrollment-code' } },
    });
  });
});
