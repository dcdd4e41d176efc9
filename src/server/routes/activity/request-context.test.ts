import { describe, expect, it } from 'vitest';
import { AuthorizationRequest, EnrollmentLink, RequestContextList } from '../../../shared/contract/index.ts';
import { decide, enrollDevice, PHONE } from '../../test/device-helpers.ts';
import { DEMO_STAFF, demoCreateRequest, expectProblem, HELPDESK, parseBody, useTestApp } from '../../test/harness.ts';

const contextUrl = (ids: readonly number[] | string) =>
  `/api/AuthorizationRequestContexts?ids=${typeof ids === 'string' ? ids : ids.join(',')}`;

describe('authorization request context', () => {
  const { t, tokens } = useTestApp({ signIn: DEMO_STAFF });
  /** A newcomer with an account and no device yet (the demo people have theirs). */
  const NEWCOMER = ['DEMO\\newcomer', 'Newcomer#2026'] as const;
  const newcomer = async () => {
    await t.addPrincipal(NEWCOMER[0], NEWCOMER[1], []);
    return t.login(NEWCOMER[0], NEWCOMER[1]);
  };

  const contexts = async (ids: readonly number[], token: string) => {
    const response = await t.call({ method: 'GET', url: contextUrl(ids), token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, RequestContextList);
  };

  /** The helpdesk makes a link for the newcomer, and a phone at another address enrols with it. */
  async function helpdeskEnrolsNewcomersPhone(model = 'Pixel 9') {
    const made = await t.call({
      method: 'POST',
      url: `/api/People/${encodeURIComponent(NEWCOMER[0])}/EnrollmentLinks`,
      token: tokens.helpdesk,
    });
    expect(made.statusCode, made.body).toBe(201);
    const link = parseBody(made, EnrollmentLink);
    const response = await t.call({
      method: 'POST',
      url: '/api/Device/Enrollments',
      payload: { DeviceType: 'Android', Manufacturer: 'Google', Model: model, EnrollmentCode: link.Code },
      remoteAddress: '198.51.100.7',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 15; Pixel 9)' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { AuthorizationRequestId: number; RequestGuid: string; DeviceToken: string };
  }

  it('says a link came from the helpdesk, for whom and when, from which address and browser, with plain hints', async () => {
    await newcomer();
    const enrolled = await helpdeskEnrolsNewcomersPhone();
    const [seenByHelpdesk] = await contexts([enrolled.AuthorizationRequestId], tokens.helpdesk);
    expect(seenByHelpdesk).toMatchObject({
      AuthorizationRequestId: enrolled.AuthorizationRequestId,
      UserName: NEWCOMER[0],
      Origin: {
        Kind: 'Link',
        SignInMethod: null,
        LinkIssuedBy: HELPDESK[0],
        LinkIssuedFor: NEWCOMER[0],
        LinkIssuedTimestampUtc: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /),
        ClientAddress: '198.51.100.7',
        UserAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9)',
      },
      OtherDevices: [],
      OpenReports: 0,
    });
    expect(seenByHelpdesk?.Hints.map((hint) => hint.Text)).toEqual([
      `First device for ${NEWCOMER[0]}`,
      // The newcomer signed in from the test's loopback address, never from this one.
      `From an address never seen for ${NEWCOMER[0]}`,
      'The link was issued by you',
    ]);
    // Someone else deciding is told who issued it instead.
    const [seenByAdmin] = await contexts([enrolled.AuthorizationRequestId], tokens.admin);
    expect(seenByAdmin?.Hints.map((hint) => hint.Kind)).toEqual(['FirstDevice', 'NewAddress', 'LinkIssuedByOther']);
    expect(seenByAdmin?.Hints[2]?.Text).toBe(`The link was issued by ${HELPDESK[0]}, not by ${NEWCOMER[0]}`);
  });

  it("names the person's other devices (Active and waiting) and the Active one in a hint", async () => {
    const token = await newcomer();
    const first = await enrollDevice(t, { token });
    await decide(t, tokens.admin, first);
    const waiting = await enrollDevice(t, { token }, { ...PHONE, Model: 'iPad Air' });
    const third = await helpdeskEnrolsNewcomersPhone('Pixel 8');
    const [context] = await contexts([third.AuthorizationRequestId], tokens.auditor);
    expect(context?.OtherDevices).toEqual([
      expect.objectContaining({ State: 'Active', Model: 'iPhone 16', AuthorizationRequestId: null }),
      expect.objectContaining({
        State: 'Waiting',
        Model: 'iPad Air',
        AuthorizationRequestId: waiting.AuthorizationRequestId,
        PushMessageUserId: null,
      }),
    ]);
    expect(context?.Hints.map((hint) => hint.Text)).toContain(`${NEWCOMER[0]} already has an Active iPhone 16`);
    expect(context?.Hints.map((hint) => hint.Kind)).not.toContain('FirstDevice');
    // Once approved, a request's own device is not among the others.
    const [approved] = await contexts([first.AuthorizationRequestId], tokens.auditor);
    expect(approved?.OtherDevices.map((device) => device.Model)).toEqual(['Pixel 8', 'iPad Air']);
    // The signed-in enrolment says how its person signed in, and comes from an address they signed in from.
    const [signedIn] = await contexts([waiting.AuthorizationRequestId], tokens.auditor);
    expect(signedIn?.Origin).toMatchObject({ Kind: 'SignedIn', SignInMethod: 'Password', LinkIssuedBy: null });
    expect(signedIn?.Hints.map((hint) => hint.Kind)).toEqual(['HasActiveDevice']);
  });

  it('tells that the person holds Accounts permissions, and answers a page of requests in the order asked', async () => {
    const admins = await enrollDevice(t, { token: tokens.admin });
    const zoe = await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\Zoe' });
    const both = await contexts([zoe.Id, admins.AuthorizationRequestId], tokens.auditor);
    expect(both.map((context) => context.AuthorizationRequestId)).toEqual([zoe.Id, admins.AuthorizationRequestId]);
    expect(both[1]?.Hints.map((hint) => hint.Text)).toContain(
      'This person holds Accounts permissions (Read and Write)',
    );
    // A request the demo console made has no enrolment to tell of.
    expect(both[0]?.Origin.Kind).toBe('NotRecorded');
    expect(both[0]?.Hints.map((hint) => hint.Text)).toEqual(['First device for ACME\\Zoe']);
    // Approved, the push user its decision registered is itself, not another device.
    await decide(t, tokens.admin, { AuthorizationRequestId: zoe.Id, RequestGuid: zoe.RequestGuid, DeviceToken: '' });
    const [decided] = await contexts([zoe.Id], tokens.auditor);
    expect(decided?.OtherDevices).toEqual([]);
  });

  it("leaves the seed's answers for requests exactly as they were", async () => {
    await newcomer();
    const enrolled = await helpdeskEnrolsNewcomersPhone();
    for (const version of ['3.0', '3.3']) {
      const one = await t.call({
        method: 'GET',
        url: `/api/Consumer/Authentication/AuthorizationRequests/${enrolled.AuthorizationRequestId}`,
        token: tokens.auditor,
        version,
      });
      expect(one.statusCode, one.body).toBe(200);
      expect(Object.keys(one.json()).sort()).toEqual(Object.keys(AuthorizationRequest.shape).sort());
      const list = await t.call({
        method: 'GET',
        url: '/api/Consumer/Authentication/AuthorizationRequests',
        token: tokens.auditor,
        version,
      });
      for (const row of list.json() as object[]) {
        expect(Object.keys(row).sort()).toEqual(Object.keys(AuthorizationRequest.shape).sort());
      }
    }
  });

  describe('refuses', () => {
    it('malformed ids with a 400 naming the field', async () => {
      for (const ids of ['', 'abc', '1,,2', '-1', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
        const response = await t.call({ method: 'GET', url: contextUrl(ids), token: tokens.auditor });
        const problem = expectProblem(response, 400, 'validation');
        expect(problem.errors?.[0]?.path).toBe('ids');
      }
      expectProblem(await t.call({ method: 'GET', url: contextUrl('0'), token: tokens.auditor }), 400, 'validation');
    });

    it('unknown requests with a 404 naming them', async () => {
      const known = await demoCreateRequest(t, tokens.admin);
      const response = await t.call({ method: 'GET', url: contextUrl([known.Id, 999_999]), token: tokens.auditor });
      expect(expectProblem(response, 404, 'not-found').detail).toContain('999999');
    });

    it('a caller without Read on Security, and one not signed in', async () => {
      const known = await demoCreateRequest(t, tokens.admin);
      expectProblem(
        await t.call({ method: 'GET', url: contextUrl([known.Id]), token: tokens.operator }),
        403,
        'forbidden',
      );
      expectProblem(await t.call({ method: 'GET', url: contextUrl([known.Id]) }), 401, 'unauthenticated');
    });

    it('a version this service does not have', async () => {
      const known = await demoCreateRequest(t, tokens.admin);
      const response = await t.call({
        method: 'GET',
        url: contextUrl([known.Id]),
        token: tokens.auditor,
        version: '2.0',
      });
      expect(response.statusCode, response.body).toBe(400);
    });
  });
});
