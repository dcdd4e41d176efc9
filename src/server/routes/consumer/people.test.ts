import { describe, expect, it } from 'vitest';
import {
  Account,
  AccountList,
  EnrollmentLink,
  Instruction,
  Person,
  PersonSummaryList,
  ReportedCodeList,
  ReportHandled,
} from '../../../shared/contract/index.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { decide, deviceCall, enrollDevice, PHONE, setPushUserStatus } from '../../test/device-helpers.ts';
import {
  ADMIN,
  DEMO_STAFF,
  demoCreateRequest,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  useTestApp,
} from '../../test/harness.ts';

const personUrl = (userName: string) => `/api/People/${encodeURIComponent(userName)}`;

describe('people', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({
    options: { auditSink: lines },
    signIn: DEMO_STAFF,
  });

  const people = async (token: string) => {
    const response = await t.call({ method: 'GET', url: '/api/People', token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, PersonSummaryList);
  };
  const person = async (userName: string, token: string) => {
    const response = await t.call({ method: 'GET', url: personUrl(userName), token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, Person);
  };

  /** Zoe has no account: three requests under two spellings of her name, one of them approved. */
  async function zoeAsksThreeTimes() {
    const first = await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\Zoe', DeviceType: 'Android' });
    await demoCreateRequest(t, tokens.admin, { UserName: 'acme\\ZOE', DeviceType: 'iOS' });
    await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\Zoe', DeviceType: 'iPadOS' });
    const approved = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/AuthorizeDevice',
      token: tokens.helpdesk,
      payload: { RequestId: first.Id, RequestGuid: first.RequestGuid, Authorized: true },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return first;
  }

  /** The operator enrols a phone, it is approved, a code goes to it, and the phone says "This wasn't me". */
  async function operatorReportsACode({ alsoWaiting }: { alsoWaiting?: string } = {}): Promise<{
    instructionId: number;
    token: string;
    alsoWaiting: number | null;
  }> {
    const phone = await enrollDevice(t, { token: tokens.operator });
    await decide(t, tokens.admin, phone);
    // Another code of theirs waiting on the phone when the report comes, when the test wants one.
    const earlier = alsoWaiting
      ? parseBody(
          await t.call({
            method: 'POST',
            url: '/api/Instructions',
            token: tokens.operator,
            payload: { Name: alsoWaiting },
          }),
          Instruction,
        ).Id
      : null;
    const created = await t.call({
      method: 'POST',
      url: '/api/Instructions',
      token: tokens.operator,
      payload: { Name: 'Open the payroll export' },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const instruction = parseBody(created, Instruction);
    const inbox = await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' });
    const token =
      (inbox.json() as { Token: string; InstructionId: number }[]).find((push) => push.InstructionId === instruction.Id)
        ?.Token ?? '';
    expect(token).toMatch(/^\d{6}$/);
    const report = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Pushes/${instruction.Id}/Report`,
    });
    expect(report.statusCode, report.body).toBe(204);
    return { instructionId: instruction.Id, token, alsoWaiting: earlier };
  }

  describe('the list', () => {
    it('has one row per person, whatever the case of their name, counted from every source', async () => {
      await zoeAsksThreeTimes();
      const list = await people(tokens.auditor);
      const zoes = list.filter((row) => row.UserName.toLowerCase() === 'acme\\zoe');
      expect(zoes).toEqual([
        {
          UserName: expect.stringMatching(/^acme\\zoe$/i),
          HasAccount: false,
          LastSignInUtc: null,
          Devices: 1,
          ActiveDevices: 1,
          PendingRequests: 2,
          OpenReports: 0,
        },
      ]);
      // Accounts are people too, spelt as their account spells them, with their last sign-in.
      const admin = list.find((row) => row.UserName === ADMIN[0]);
      expect(admin).toMatchObject({ HasAccount: true, LastSignInUtc: expect.any(String) });
      // Ordered by user name, case-insensitively, each person once.
      const keys = list.map((row) => row.UserName.toLowerCase());
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('counts Deleted registrations out of the devices, and Disabled ones out of the active devices', async () => {
      await zoeAsksThreeTimes();
      const zoe = await person('ACME\\Zoe', tokens.admin);
      const pushUserId = zoe.Devices[0]?.Id as number;
      for (const [status, devices, active] of [
        [2, 1, 0],
        [3, 0, 0],
      ] as const) {
        await setPushUserStatus(t, tokens.admin, pushUserId, status);
        const row = (await people(tokens.admin)).find((item) => item.UserName.toLowerCase() === 'acme\\zoe');
        expect(row).toMatchObject({ Devices: devices, ActiveDevices: active });
      }
    });

    it('needs Read on Security', async () => {
      expectProblem(await t.call({ method: 'GET', url: '/api/People', token: tokens.operator }), 403, 'forbidden');
      expectProblem(await t.call({ method: 'GET', url: '/api/People' }), 401, 'unauthenticated');
    });
  });

  describe("a person's page", () => {
    it('links each request to the push user it registered, and back', async () => {
      const approved = await zoeAsksThreeTimes();
      const zoe = await person('acme\\zoe', tokens.auditor);
      expect(zoe.HasAccount).toBe(false);
      expect(zoe.Account).toBeNull();
      expect(zoe.Requests.map((request) => request.Status)).toEqual(['Pending', 'Pending', 'Authorized']);
      expect(zoe.Devices).toHaveLength(1);
      const [device] = zoe.Devices;
      expect(device).toMatchObject({ DeviceType: 'Android', Status: 1, AuthorizationRequestId: approved.Id });
      expect(zoe.Requests.find((request) => request.Id === approved.Id)?.PushMessageUserId).toBe(device?.Id);
      expect(zoe.Requests.filter((request) => request.PushMessageUserId !== null)).toHaveLength(1);
    });

    it('shows the account and sign-ins only to those who may read accounts', async () => {
      const forAdmin = await person('demo\\ADMIN', tokens.admin);
      expect(forAdmin.UserName).toBe(ADMIN[0]);
      expect(forAdmin.AccountVisible).toBe(true);
      expect(Account.parse(forAdmin.Account).UserName).toBe(ADMIN[0]);
      expect(forAdmin.SignIns.length).toBeGreaterThan(0);
      expect(forAdmin.SignIns.every((entry) => ['SignedIn', 'SignInFailed'].includes(entry.Action))).toBe(true);

      const forHelpdesk = await person(ADMIN[0], tokens.helpdesk);
      expect(forHelpdesk).toMatchObject({ HasAccount: true, AccountVisible: false, Account: null, SignIns: [] });
      expect(forHelpdesk.LastSignInUtc).toBe(forAdmin.LastSignInUtc);
    });

    it('lists the codes sent, with where they were asked from and what became of them, never the code', async () => {
      const { instructionId, token } = await operatorReportsACode();
      const response = await t.call({ method: 'GET', url: personUrl(OPERATOR[0]), token: tokens.auditor });
      expect(response.body).not.toContain(token);
      const operator = parseBody(response, Person);
      expect(operator.Codes[0]).toMatchObject({
        InstructionId: instructionId,
        InstructionName: 'Open the payroll export',
        UserAgent: 'curl/8.5.0',
        ClientAddress: '127.0.0.1',
        Outcome: 'Reported',
        ReportedTimestampUtc: expect.any(String),
        HandledBy: null,
      });
      // The enrolled phone is one of their devices, linked to the request its enrolment made.
      expect(operator.Devices.some((device) => device.AuthorizationRequestId !== null)).toBe(true);
    });

    it('says of a code ended by the report of another that the report ended it, not that it expired', async () => {
      const { instructionId, alsoWaiting } = await operatorReportsACode({ alsoWaiting: 'Asked a minute before' });
      const operator = parseBody(
        await t.call({ method: 'GET', url: personUrl(OPERATOR[0]), token: tokens.auditor }),
        Person,
      );
      expect(operator.Codes.map((code) => [code.InstructionId, code.Outcome])).toEqual([
        [instructionId, 'Reported'],
        [alsoWaiting, 'Ended'],
      ]);
      // A code whose time ran out unused is still said to have expired.
      const again = await t.login(...OPERATOR);
      const later = parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: again, payload: { Name: 'Left to expire' } }),
        Instruction,
      );
      t.clock.advanceMinutes(11);
      const after = parseBody(
        await t.call({ method: 'GET', url: personUrl(OPERATOR[0]), token: tokens.auditor }),
        Person,
      );
      expect(after.Codes[0]).toMatchObject({ InstructionId: later.Id, Outcome: 'Expired' });
    });

    it('says which person is unknown, and refuses names that are not names', async () => {
      const unknown = expectProblem(
        await t.call({ method: 'GET', url: personUrl('ACME\\nobody'), token: tokens.admin }),
        404,
        'not-found',
      );
      expect(unknown.detail).toContain('ACME\\nobody');
      // The longest name a person can have is found (or not) like any other; one longer is refused in words.
      expectProblem(
        await t.call({ method: 'GET', url: personUrl(`ACME\\${'é'.repeat(251)}`), token: tokens.admin }),
        404,
        'not-found',
      );
      expectProblem(
        await t.call({ method: 'GET', url: personUrl(`ACME\\${'x'.repeat(252)}`), token: tokens.admin }),
        400,
        'validation',
      );
      expectProblem(
        await t.call({ method: 'GET', url: personUrl('ACME\\bell\u0007'), token: tokens.admin }),
        400,
        'validation',
      );
      expectProblem(
        await t.call({ method: 'GET', url: personUrl(ADMIN[0]), token: tokens.operator }),
        403,
        'forbidden',
      );
    });
  });

  describe('reports', () => {
    it('are open until someone with Write on Security marks them handled: by whom, when, once', async () => {
      await operatorReportsACode();
      const openRow = (await people(tokens.admin)).find((row) => row.UserName === OPERATOR[0]);
      expect(openRow?.OpenReports).toBe(1);
      const reportId = (await person(OPERATOR[0], tokens.admin)).Codes[0]?.Id as number;

      expectProblem(
        await t.call({ method: 'POST', url: `/api/People/Reports/${reportId}/Handled`, token: tokens.auditor }),
        403,
        'forbidden',
      );
      t.clock.advanceMinutes(3);
      const handled = await t.call({
        method: 'POST',
        url: `/api/People/Reports/${reportId}/Handled`,
        token: tokens.helpdesk,
      });
      expect(handled.statusCode, handled.body).toBe(200);
      expect(parseBody(handled, ReportHandled)).toEqual({
        Id: reportId,
        HandledBy: HELPDESK[0],
        HandledTimestampUtc: t.clock.stamp(),
      });
      // Marking it again keeps who handled it first.
      const again = await t.call({
        method: 'POST',
        url: `/api/People/Reports/${reportId}/Handled`,
        token: tokens.admin,
      });
      expect(parseBody(again, ReportHandled).HandledBy).toBe(HELPDESK[0]);

      expect((await people(tokens.admin)).find((row) => row.UserName === OPERATOR[0])?.OpenReports).toBe(0);
      expect((await person(OPERATOR[0], tokens.admin)).Codes[0]).toMatchObject({ HandledBy: HELPDESK[0] });
      const reported = parseBody(
        await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: tokens.admin }),
        ReportedCodeList,
      );
      expect(reported.find((item) => item.Id === reportId)).toMatchObject({ HandledBy: HELPDESK[0] });
      expect(lines.of('code-report-handled').at(-1)).toMatchObject({
        event: { outcome: 'success' },
        user: { name: 'DEMO\\admin' },
        tachyon: { details: { report: reportId } },
      });
    });

    it('answer 404 for a code nobody reported, and 400 for an Id that is not one', async () => {
      expectProblem(
        await t.call({ method: 'POST', url: '/api/People/Reports/999999/Handled', token: tokens.admin }),
        404,
        'not-found',
      );
      expectProblem(
        await t.call({ method: 'POST', url: '/api/People/Reports/abc/Handled', token: tokens.admin }),
        400,
        'validation',
      );
    });
  });

  describe('enrolling a device for someone else', () => {
    it('gives the helpdesk a single-use link that enrols a phone as that person, and audits it', async () => {
      lines.clear();
      const issued = await t.call({
        method: 'POST',
        url: `${personUrl('demo\\operator')}/EnrollmentLinks`,
        token: tokens.helpdesk,
      });
      expect(issued.statusCode, issued.body).toBe(201);
      expect(issued.headers['cache-control']).toContain('no-store');
      const link = parseBody(issued, EnrollmentLink);
      expect(link.Url).toMatch(/\/device#enrol=/);

      // The phone at the desk enrols with the code alone: the request is the operator's, for the queue to decide.
      const enrolled = await enrollDevice(t, { code: link.Code }, { ...PHONE, Model: 'iPhone 15' });
      const operator = await person(OPERATOR[0], tokens.helpdesk);
      const request = operator.Requests.find((item) => item.Id === enrolled.AuthorizationRequestId);
      expect(request).toMatchObject({ UserName: OPERATOR[0], Status: 'Pending', Model: 'iPhone 15' });
      // Single use.
      expectProblem(
        await t.call({
          method: 'POST',
          url: '/api/Device/Enrollments',
          payload: { ...PHONE, EnrollmentCode: link.Code },
        }),
        401,
        'enrollment-code-invalid',
      );

      const accounts = parseBody(
        await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: tokens.admin }),
        AccountList,
      );
      const operatorId = accounts.find((account) => account.UserName === OPERATOR[0])?.Id;
      expect(lines.of('enrollment-link-issued')).toEqual([
        expect.objectContaining({
          event: expect.objectContaining({ outcome: 'success', category: ['iam'] }),
          user: { name: HELPDESK[0] },
          tachyon: { entity: { type: 'Account', id: operatorId }, details: { for: 'demo\\operator' } },
        }),
      ]);
      expect(lines.lines.join('\n')).not.toContain(link.Code);
    });

    it('needs Write on Security, and an enabled account to enrol for', async () => {
      await zoeAsksThreeTimes();
      expectProblem(
        await t.call({ method: 'POST', url: `${personUrl(OPERATOR[0])}/EnrollmentLinks`, token: tokens.auditor }),
        403,
        'forbidden',
      );
      const noAccount = expectProblem(
        await t.call({ method: 'POST', url: `${personUrl('ACME\\Zoe')}/EnrollmentLinks`, token: tokens.helpdesk }),
        409,
        'no-account',
      );
      expect(noAccount.detail).toContain('ACME\\Zoe has no account');

      const accounts = parseBody(
        await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: tokens.admin }),
        AccountList,
      );
      const operatorId = accounts.find((account) => account.UserName === OPERATOR[0])?.Id;
      const disabled = await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${operatorId}/Enabled`,
        token: tokens.admin,
        payload: { Enabled: false },
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expectProblem(
        await t.call({ method: 'POST', url: `${personUrl(OPERATOR[0])}/EnrollmentLinks`, token: tokens.helpdesk }),
        409,
        'account-disabled',
      );
      expect(lines.of('enrollment-link-issued').at(-1)).toMatchObject({
        event: { outcome: 'failure', reason: 'account-disabled' },
      });
    });
  });
});
