import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationRequest,
  AuthorizationRequestList,
  DemoInstruction,
  DemoPushList,
  PushMessageUserList,
  TIMESTAMP_PATTERN,
  VersionInfo,
} from '../../../shared/contract/index.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  demoCreateInstruction,
  demoCreateRequest,
  errorPaths,
  expectProblem,
  OPERATOR,
  parseBody,
  type TestApp,
  useTestApp,
} from '../../test/harness.ts';

const REQUESTS = '/api/Consumer/Authentication/AuthorizationRequests';
const PUSH_USERS = '/api/Consumer/PushMessageUsers';

describe('demo endpoints (/api/Demo/)', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN, operator: OPERATOR } });

  it('the demo data: at least 5 pending and 5 decided requests, 8 push users in all statuses, admin and operator devices', async () => {
    const requests = parseBody(
      await t.call({ method: 'GET', url: `${REQUESTS}?getall=true`, token: tokens.admin }),
      AuthorizationRequestList,
    );
    expect(requests.filter((request) => request.Status === 'Pending').length).toBeGreaterThanOrEqual(5);
    expect(requests.filter((request) => request.Status !== 'Pending').length).toBeGreaterThanOrEqual(5);
    const users = parseBody(await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }), PushMessageUserList);
    expect(users.length).toBeGreaterThanOrEqual(8);
    expect(new Set(users.map((user) => user.Status))).toEqual(new Set([1, 2, 3]));
    for (const userName of ['DEMO\\admin', 'DEMO\\operator']) {
      expect(users.some((user) => user.UserName === userName && user.Status === 1)).toBe(true);
    }
  });

  describe('POST /Demo/AuthorizationRequests', () => {
    it('answers 201 with a new pending request with the given fields, the rest made up', async () => {
      const response = await t.call({
        method: 'POST',
        url: '/api/Demo/AuthorizationRequests',
        token: tokens.operator,
        payload: { UserName: 'ACME\\zoe.kim', DeviceType: 'Android', Model: 'Pixel 8a' },
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = parseBody(response, AuthorizationRequest);
      expect(created).toMatchObject({
        UserName: 'ACME\\zoe.kim',
        DeviceType: 'Android',
        Model: 'Pixel 8a',
        Status: 'Pending',
        DecidedBy: null,
        CreatedTimestampUtc: t.clock.stamp(),
        ModifiedTimestampUtc: t.clock.stamp(),
      });
      for (const field of ['UserEmail', 'Manufacturer', 'OsVersion'] as const) expect(created[field]).not.toBe('');
      expect(created.RequestGuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      const pending = parseBody(
        await t.call({ method: 'GET', url: REQUESTS, token: tokens.admin }),
        AuthorizationRequestList,
      );
      expect(pending.at(-1)).toEqual(created);
    });

    it('makes everything up from an empty body', async () => {
      const created = await demoCreateRequest(t, tokens.operator);
      expect(created.UserName).toMatch(/\\/);
    });

    it('answers 400 for an empty field', async () => {
      const response = await t.call({
        method: 'POST',
        url: '/api/Demo/AuthorizationRequests',
        token: tokens.operator,
        payload: { UserName: '' },
      });
      expect(errorPaths(expectProblem(response, 400, 'validation'))).toEqual(['UserName']);
    });
  });

  describe('POST /Demo/Instructions and GET /Demo/Pushes', () => {
    it("creates an instruction and pushes its token to the caller's Active devices only", async () => {
      const response = await t.call({
        method: 'POST',
        url: '/api/Demo/Instructions',
        token: tokens.operator,
        payload: {},
      });
      expect(response.statusCode, response.body).toBe(201);
      const instruction = parseBody(response, DemoInstruction);
      expect(Object.keys(response.json()).sort()).toEqual(['CreatedBy', 'DeliveredTo', 'Id', 'Scheduled', 'State']);
      expect(instruction).toMatchObject({
        Scheduled: false,
        CreatedBy: 'DEMO\\operator',
        State: 'AwaitingTwoFactor',
        DeliveredTo: 1,
      });

      const pushesResponse = await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator });
      expect(pushesResponse.statusCode).toBe(200);
      const pushes = parseBody(pushesResponse, DemoPushList);
      expect(pushes).toHaveLength(1);
      const users = parseBody(
        await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }),
        PushMessageUserList,
      );
      const device = users.find((user) => user.UserName === 'DEMO\\operator' && user.Status === 1);
      expect(pushes[0]).toEqual({
        Id: expect.any(Number),
        PushMessageUserId: device?.Id,
        DeviceType: device?.DeviceType,
        InstructionId: instruction.Id,
        Scheduled: false,
        Token: expect.stringMatching(/^\d{6}$/),
        SentTimestampUtc: t.clock.stamp(),
      });
      expect(pushes[0]?.SentTimestampUtc).toMatch(TIMESTAMP_PATTERN);
      // Other people see only their own pushes.
      expect(
        parseBody(await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.admin }), DemoPushList),
      ).toEqual([]);
    });

    it('lists pushes newest first, and scheduled instructions as such', async () => {
      const first = await demoCreateInstruction(t, tokens.operator);
      const second = await demoCreateInstruction(t, tokens.operator, true);
      const pushes = parseBody(
        await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator }),
        DemoPushList,
      );
      expect(pushes.map((push) => [push.InstructionId, push.Scheduled])).toEqual([
        [second.Id, true],
        [first.Id, false],
      ]);
    });

    it("refuses an instruction once the caller's only device is disabled (409 no-active-device), creating nothing", async () => {
      const users = parseBody(
        await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }),
        PushMessageUserList,
      );
      const device = users.find((user) => user.UserName === 'DEMO\\operator' && user.Status === 1);
      await t.call({ method: 'PUT', url: PUSH_USERS, token: tokens.admin, payload: { Id: device?.Id, Status: 2 } });
      const refused = await t.call({
        method: 'POST',
        url: '/api/Demo/Instructions',
        token: tokens.operator,
        payload: {},
      });
      expect(expectProblem(refused, 409, 'no-active-device').detail).toContain('/device');
      const stored = await t.database.db.selectFrom('instructions').select('id').execute();
      expect(stored).toEqual([]);
      expect(
        parseBody(await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator }), DemoPushList),
      ).toEqual([]);
    });

    it('answers 400 for a Scheduled that is not a boolean', async () => {
      const response = await t.call({
        method: 'POST',
        url: '/api/Demo/Instructions',
        token: tokens.operator,
        payload: { Scheduled: 'yes' },
      });
      expect(errorPaths(expectProblem(response, 400, 'validation'))).toEqual(['Scheduled']);
    });
  });

  describe('POST /Demo/Instructions/{id}/Token', () => {
    it("issues and pushes a new token for the caller's own instruction", async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      t.clock.advanceMinutes(1);
      const response = await t.call({
        method: 'POST',
        url: `/api/Demo/Instructions/${instruction.Id}/Token`,
        token: tokens.operator,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, DemoInstruction)).toEqual({ ...instruction, State: 'AwaitingTwoFactor' });
      const pushes = parseBody(
        await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator }),
        DemoPushList,
      );
      expect(pushes).toHaveLength(2);
      expect(pushes[0]?.SentTimestampUtc).toBe(t.clock.stamp());
    });

    it("answers 404 for an unknown instruction and 403 not-creator for somebody else's", async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      expectProblem(
        await t.call({ method: 'POST', url: '/api/Demo/Instructions/987654/Token', token: tokens.operator }),
        404,
        'not-found',
      );
      expectProblem(
        await t.call({ method: 'POST', url: `/api/Demo/Instructions/${instruction.Id}/Token`, token: tokens.admin }),
        403,
        'not-creator',
      );
    });

    it('answers 409 once the instruction is authenticated', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const pushes = parseBody(
        await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator }),
        DemoPushList,
      );
      const submitted = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/Instruction/Token',
        token: tokens.operator,
        payload: { Id: instruction.Id, Token: pushes[0]?.Token },
      });
      expect(submitted.statusCode).toBe(200);
      expectProblem(
        await t.call({ method: 'POST', url: `/api/Demo/Instructions/${instruction.Id}/Token`, token: tokens.operator }),
        409,
        'already-authenticated',
      );
    });
  });

  describe('POST /Demo/Reset', () => {
    // Ids and GUIDs are new after a reset; everything else is the demo set again.
    const content = async () => {
      const requests = parseBody(
        await t.call({ method: 'GET', url: `${REQUESTS}?getall=true`, token: tokens.admin }),
        AuthorizationRequestList,
      );
      const users = parseBody(
        await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }),
        PushMessageUserList,
      );
      return {
        requests: requests.map(({ Id: _id, RequestGuid: _guid, ...rest }) => rest),
        users: users.map(({ Id: _id, ...rest }) => rest),
      };
    };

    it('answers 204 and restores requests and push users, and drops instructions and pushes', async () => {
      const original = await content();
      const [pending] = parseBody(
        await t.call({ method: 'GET', url: REQUESTS, token: tokens.admin }),
        AuthorizationRequestList,
      );
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/AuthorizeDevice',
        token: tokens.admin,
        payload: { RequestId: pending?.Id, RequestGuid: pending?.RequestGuid, Authorized: true },
      });
      await demoCreateRequest(t, tokens.admin);
      const users = parseBody(
        await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }),
        PushMessageUserList,
      );
      await t.call({ method: 'PUT', url: PUSH_USERS, token: tokens.admin, payload: { Id: users[0]?.Id, Status: 3 } });
      await demoCreateInstruction(t, tokens.operator);
      expect(await content()).not.toEqual(original);

      const response = await t.call({ method: 'POST', url: '/api/Demo/Reset', token: tokens.admin });
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect(await content()).toEqual(original);
      expect(
        parseBody(await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator }), DemoPushList),
      ).toEqual([]);
      // Sessions survive a reset.
      expect(
        (await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: tokens.admin })).statusCode,
      ).toBe(200);
    });

    it('changes the list ETags', async () => {
      const before = (await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin })).headers.etag;
      await t.call({ method: 'POST', url: '/api/Demo/Reset', token: tokens.admin });
      const after = await t.call({
        method: 'GET',
        url: PUSH_USERS,
        token: tokens.admin,
        headers: { 'if-none-match': String(before) },
      });
      expect(after.statusCode).toBe(200);
    });
  });

  it('needs a signed-in caller for every demo endpoint (401), but no Security permission', async () => {
    const calls = [
      { method: 'POST', url: '/api/Demo/AuthorizationRequests', payload: {} },
      { method: 'POST', url: '/api/Demo/Instructions', payload: {} },
      { method: 'POST', url: '/api/Demo/Instructions/1/Token' },
      { method: 'GET', url: '/api/Demo/Pushes' },
      { method: 'POST', url: '/api/Demo/Reset' },
    ] as const;
    for (const call of calls) {
      const response = await t.call(call);
      expectProblem(response, 401, 'unauthenticated');
      expect(String(response.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    }
    const auditor = await t.login(...AUDITOR);
    expect((await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: auditor })).statusCode).toBe(200);
  });
});

describe('demo mode off', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ demo: false, adminUserName: 'CORP\\root', adminPassword: 'Root#Password1' });
  });
  afterEach(() => t.close());

  it('has no demo endpoints: 404 problems, signed in or not', async () => {
    const token = await t.login('CORP\\root', 'Root#Password1');
    for (const [method, url] of [
      ['POST', '/api/Demo/AuthorizationRequests'],
      ['POST', '/api/Demo/Instructions'],
      ['POST', '/api/Demo/Instructions/1/Token'],
      ['GET', '/api/Demo/Pushes'],
      ['POST', '/api/Demo/Reset'],
    ] as const) {
      expectProblem(await t.call({ method, url, payload: {} }), 404, 'not-found');
      expectProblem(await t.call({ method, url, payload: {}, token }), 404, 'not-found');
    }
  });

  it('has no demo accounts or data, and says so in the version document', async () => {
    const version = parseBody(await t.call({ method: 'GET', url: '/api/Consumer/Version' }), VersionInfo);
    expect(version.Demo).toBe(false);
    const login = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expectProblem(login, 401, 'invalid-credentials');
    const token = await t.login('CORP\\root', 'Root#Password1');
    expect(parseBody(await t.call({ method: 'GET', url: PUSH_USERS, token }), PushMessageUserList)).toEqual([]);
  });
});
