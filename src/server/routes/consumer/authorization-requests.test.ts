import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AuthorizationRequest,
  AuthorizationRequestList,
  PushMessageUserList,
  TIMESTAMP_PATTERN,
} from '../../../shared/contract/index.ts';
import {
  ADMIN,
  AUDITOR,
  demoCreateRequest,
  errorPaths,
  expectProblem,
  HELPDESK,
  parseBody,
  useTestApp,
} from '../../test/harness.ts';

const DECIDE = '/api/Consumer/Authentication/AuthorizeDevice';
const LIST = '/api/Consumer/Authentication/AuthorizationRequests';
const PUSH_USERS = '/api/Consumer/PushMessageUsers';

const SEED_FIELDS = [
  'CreatedTimestampUtc',
  'DeviceType',
  'Id',
  'Manufacturer',
  'Model',
  'ModifiedTimestampUtc',
  'OsVersion',
  'RequestGuid',
  'UserEmail',
  'UserName',
];
const EXTENSION_FIELDS = ['Comment', 'DecidedBy', 'DecidedTimestampUtc', 'Status'];

describe('authorization requests: #5, #6, #7', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN } });

  const list = async (query = '', token = tokens.admin) => {
    const response = await t.call({ method: 'GET', url: `${LIST}${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, AuthorizationRequestList);
  };
  const getOne = (id: number | string, token = tokens.admin) => t.call({ method: 'GET', url: `${LIST}/${id}`, token });
  const decide = (payload: object, token = tokens.admin) => t.call({ method: 'POST', url: DECIDE, payload, token });
  const pushUsers = async () =>
    parseBody(await t.call({ method: 'GET', url: PUSH_USERS, token: tokens.admin }), PushMessageUserList);

  describe('#6 GET /Consumer/Authentication/AuthorizationRequests', () => {
    it('answers a bare array with the seed field names, ordered by Id', async () => {
      const response = await t.call({ method: 'GET', url: `${LIST}?getall=true`, token: tokens.admin });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const raw = response.json<Array<Record<string, unknown>>>();
      expect(Array.isArray(raw)).toBe(true);
      const requests = parseBody(response, AuthorizationRequestList);
      expect(requests.length).toBeGreaterThanOrEqual(10);
      for (const item of raw) {
        expect(Object.keys(item).sort()).toEqual([...SEED_FIELDS, ...EXTENSION_FIELDS].sort());
        expect(item.CreatedTimestampUtc).toMatch(TIMESTAMP_PATTERN);
        expect(item.ModifiedTimestampUtc).toMatch(TIMESTAMP_PATTERN);
        expect(item.RequestGuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      }
      const ids = requests.map((request) => request.Id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('getall=true answers pending and decided requests; getall=false only pending ones', async () => {
      const all = await list('?getall=true');
      const pending = await list('?getall=false');
      expect(new Set(all.map((request) => request.Status))).toEqual(new Set(['Pending', 'Authorized', 'Rejected']));
      expect(pending.length).toBeGreaterThanOrEqual(5);
      expect(pending.every((request) => request.Status === 'Pending')).toBe(true);
      expect(pending).toEqual(all.filter((request) => request.Status === 'Pending'));
    });

    it('getall omitted means false: pending only', async () => {
      expect(await list()).toEqual(await list('?getall=false'));
      expect(await list()).not.toEqual(await list('?getall=true'));
    });

    it('takes true/false in any case, and the parameter name in any case', async () => {
      const all = await list('?getall=true');
      const pending = await list('?getall=false');
      for (const query of ['?getall=TRUE', '?GetAll=true', '?getAll=True', '?GETALL=true']) {
        expect(await list(query)).toEqual(all);
      }
      for (const query of ['?getall=FALSE', '?GetAll=false', '?getAll=False']) {
        expect(await list(query)).toEqual(pending);
      }
    });

    it('answers 400 for a getall that is not true or false', async () => {
      for (const value of ['yes', '1', '', 'truee']) {
        const problem = expectProblem(
          await t.call({ method: 'GET', url: `${LIST}?getall=${value}`, token: tokens.admin }),
          400,
          'validation',
        );
        expect(errorPaths(problem)).toEqual(['getall']);
      }
    });

    it('answers an ETag, 304 for If-None-Match, and a new ETag after a decision', async () => {
      const first = await t.call({ method: 'GET', url: LIST, token: tokens.admin });
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const notModified = await t.call({
        method: 'GET',
        url: LIST,
        token: tokens.admin,
        headers: { 'if-none-match': String(etag) },
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      // A different list (getall=true) has its own tag.
      const allTag = (await t.call({ method: 'GET', url: `${LIST}?getall=true`, token: tokens.admin })).headers.etag;
      expect(allTag).not.toBe(etag);

      const [target] = parseBody(first, AuthorizationRequestList);
      if (!target) throw new Error('no pending request');
      expect(
        (await decide({ RequestId: target.Id, RequestGuid: target.RequestGuid, Authorized: false })).statusCode,
      ).toBe(200);

      const changed = await t.call({
        method: 'GET',
        url: LIST,
        token: tokens.admin,
        headers: { 'if-none-match': String(etag) },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(parseBody(changed, AuthorizationRequestList).map((request) => request.Id)).not.toContain(target.Id);
      const changedAll = await t.call({
        method: 'GET',
        url: `${LIST}?getall=true`,
        token: tokens.admin,
        headers: { 'if-none-match': String(allTag) },
      });
      expect(changedAll.statusCode).toBe(200);
    });

    it('changes the ETag when a new request arrives', async () => {
      const etag = (await t.call({ method: 'GET', url: LIST, token: tokens.admin })).headers.etag;
      await demoCreateRequest(t, tokens.admin);
      const after = await t.call({
        method: 'GET',
        url: LIST,
        token: tokens.admin,
        headers: { 'if-none-match': String(etag) },
      });
      expect(after.statusCode).toBe(200);
    });
  });

  describe('#7 GET /Consumer/Authentication/AuthorizationRequests/{id}', () => {
    it('answers one request, the same shape as an element of #6', async () => {
      const all = await list('?getall=true');
      for (const request of all.slice(0, 3)) {
        const response = await getOne(request.Id);
        expect(response.statusCode).toBe(200);
        expect(parseBody(response, AuthorizationRequest)).toEqual(request);
        expect(Object.keys(response.json()).sort()).toEqual([...SEED_FIELDS, ...EXTENSION_FIELDS].sort());
      }
    });

    it('answers 404 for an unknown id', async () => {
      const problem = expectProblem(await getOne(987_654), 404, 'not-found');
      expect(problem.detail).toContain('987654');
    });

    it('answers 400 for an id that is not a positive integer', async () => {
      for (const id of ['abc', '1.5', '0', '-1', '12345678901234567890']) {
        const problem = expectProblem(await getOne(id), 400, 'validation');
        expect(errorPaths(problem)).toEqual(['id']);
      }
    });
  });

  describe('#5 POST /Consumer/Authentication/AuthorizeDevice', () => {
    it('authorizes: 200 with the decided request, and registers the device as an Active push user', async () => {
      const before = await pushUsers();
      const request = await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\new.person', DeviceType: 'Android' });
      expect(before.some((user) => user.UserName === 'ACME\\new.person')).toBe(false);
      t.clock.advanceMinutes(5);

      const response = await decide({
        RequestId: request.Id,
        RequestGuid: request.RequestGuid,
        Authorized: true,
        Comment: 'Called the user',
      });
      expect(response.statusCode, response.body).toBe(200);
      const decided = parseBody(response, AuthorizationRequest);
      const now = t.clock.stamp();
      expect(decided).toEqual({
        ...request,
        Status: 'Authorized',
        Comment: 'Called the user',
        DecidedBy: 'DEMO\\admin',
        DecidedTimestampUtc: now,
        ModifiedTimestampUtc: now,
      });
      expect(parseBody(await getOne(request.Id), AuthorizationRequest)).toEqual(decided);

      const after = await pushUsers();
      expect(after).toHaveLength(before.length + 1);
      const registered = after.filter((user) => user.UserName === 'ACME\\new.person');
      expect(registered).toEqual([
        expect.objectContaining({
          DeviceType: 'Android',
          Status: 1,
          CreatedTimeStampUtc: now,
          ModifiedTimestampUtc: now,
        }),
      ]);
    });

    it('rejects: 200 with the decided request, and registers nothing', async () => {
      const before = await pushUsers();
      const request = await demoCreateRequest(t, tokens.admin, {
        UserName: 'ACME\\rejected.person',
        DeviceType: 'iOS',
      });
      const response = await decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: false });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, AuthorizationRequest)).toMatchObject({
        Id: request.Id,
        Status: 'Rejected',
        Comment: null,
        DecidedBy: 'DEMO\\admin',
        DecidedTimestampUtc: t.clock.stamp(),
      });
      expect(await pushUsers()).toEqual(before);
      // Decided requests leave the pending list and stay in the full one.
      expect((await list()).map((item) => item.Id)).not.toContain(request.Id);
      expect((await list('?getall=true')).find((item) => item.Id === request.Id)?.Status).toBe('Rejected');
    });

    it('registers a new push user of its own, leaving a Disabled one of the same person and device type Disabled', async () => {
      const existing = (await pushUsers()).find((user) => user.UserName === 'DEMO\\admin' && user.Status === 1);
      if (!existing) throw new Error('demo data lacks an Active device for DEMO\\admin');
      const put = await t.call({
        method: 'PUT',
        url: PUSH_USERS,
        token: tokens.admin,
        payload: { Id: existing.Id, Status: 2 },
      });
      expect(put.statusCode, put.body).toBe(200);
      const before = await pushUsers();
      const lost = before.find((user) => user.Id === existing.Id);

      // The user name's case differs: Windows account names compare case-insensitively.
      const request = await demoCreateRequest(t, tokens.admin, {
        UserName: 'demo\\ADMIN',
        DeviceType: existing.DeviceType,
      });
      t.clock.advanceMinutes(3);
      const response = await decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true });
      expect(response.statusCode, response.body).toBe(200);

      const after = await pushUsers();
      expect(after).toHaveLength(before.length + 1);
      // The lost phone's registration is exactly as it was: still Disabled, still described as before.
      expect(after.find((user) => user.Id === existing.Id)).toEqual(lost);
      const added = after.at(-1);
      expect(added).toMatchObject({
        UserName: request.UserName,
        DeviceType: existing.DeviceType,
        Status: 1,
        CreatedTimeStampUtc: t.clock.stamp(),
        Manufacturer: request.Manufacturer,
        Model: request.Model,
        OsVersion: request.OsVersion,
      });
      expect(added?.Id).not.toBe(existing.Id);
    });

    it("gives the registered push user the request's Manufacturer, Model and OsVersion (#8, #9, #10)", async () => {
      const request = await demoCreateRequest(t, tokens.admin, {
        UserName: 'ACME\\device.owner',
        DeviceType: 'Android',
        Manufacturer: 'Fairphone',
        Model: 'FP5',
        OsVersion: '14',
      });
      const response = await decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true });
      expect(response.statusCode, response.body).toBe(200);
      const registered = (await pushUsers()).find((user) => user.UserName === 'ACME\\device.owner');
      if (!registered) throw new Error('the authorized device was not registered');
      const device = { Manufacturer: 'Fairphone', Model: 'FP5', OsVersion: '14' };
      expect(registered).toMatchObject(device);
      const one = await t.call({ method: 'GET', url: `${PUSH_USERS}/${registered.Id}`, token: tokens.admin });
      expect(one.json()).toMatchObject(device);
      const changed = await t.call({
        method: 'PUT',
        url: PUSH_USERS,
        token: tokens.admin,
        payload: { Id: registered.Id, Status: 2, Manufacturer: 'ignored' },
      });
      expect(changed.json()).toMatchObject({ ...device, Status: 2 });
    });

    it('leaves Manufacturer, Model and OsVersion null on push users no request registered', async () => {
      // A registration no request described (one made before the device fields existed, say).
      const at = t.clock.stamp();
      await t.database.db
        .insertInto('push_message_users')
        .values({
          user_name: 'ACME\\old.phone',
          user_key: 'acme\\old.phone',
          device_type: 'Android',
          created_at: at,
          modified_at: at,
          status: 1,
          manufacturer: null,
          model: null,
          os_version: null,
        })
        .execute();
      const other = (await pushUsers()).find((user) => user.UserName === 'ACME\\old.phone');
      expect(other).toMatchObject({ Manufacturer: null, Model: null, OsVersion: null });
    });

    it('accepts the GUID in any case, body names in any case, and a null comment', async () => {
      const request = await demoCreateRequest(t, tokens.admin);
      const response = await decide({
        requestId: request.Id,
        requestguid: request.RequestGuid.toUpperCase(),
        AUTHORIZED: false,
        comment: null,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, AuthorizationRequest).Status).toBe('Rejected');
    });

    it('answers a second decision with 409 already-decided naming who decided', async () => {
      const helpdesk = await t.login(...HELPDESK);
      const request = await demoCreateRequest(t, tokens.admin);
      const first = await decide(
        { RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true },
        helpdesk,
      );
      expect(first.statusCode).toBe(200);
      for (const authorized of [true, false]) {
        const problem = expectProblem(
          await decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: authorized }),
          409,
          'already-decided',
        );
        expect(problem.detail).toContain('DEMO\\helpdesk');
        expect(problem.decidedBy).toBe('DEMO\\helpdesk');
      }
      // The first decision stands.
      expect(parseBody(await getOne(request.Id), AuthorizationRequest)).toMatchObject({
        Status: 'Authorized',
        DecidedBy: 'DEMO\\helpdesk',
      });
    });

    it('decides exactly once when two decisions arrive together', async () => {
      const request = await demoCreateRequest(t, tokens.admin);
      const answers = await Promise.all([
        decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true }),
        decide({ RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: false }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    });

    it('answers 404 for an unknown RequestId', async () => {
      expectProblem(
        await decide({ RequestId: 987_654, RequestGuid: randomUUID(), Authorized: true }),
        404,
        'not-found',
      );
    });

    it("answers 400 request-guid-mismatch for another request's RequestGuid, and decides nothing", async () => {
      const [first, second] = await list();
      if (!first || !second) throw new Error('need two pending requests');
      const problem = expectProblem(
        await decide({ RequestId: first.Id, RequestGuid: second.RequestGuid, Authorized: true }),
        400,
        'request-guid-mismatch',
      );
      expect(errorPaths(problem)).toEqual(['RequestGuid']);
      expectProblem(
        await decide({ RequestId: first.Id, RequestGuid: randomUUID(), Authorized: true }),
        400,
        'request-guid-mismatch',
      );
      expect((await list()).map((item) => item.Id)).toEqual(expect.arrayContaining([first.Id, second.Id]));
    });

    it('answers 400 validation naming each bad or missing field', async () => {
      const problem = expectProblem(await decide({ RequestId: 'one', RequestGuid: 'not-a-guid' }), 400, 'validation');
      expect(errorPaths(problem)).toEqual(['Authorized', 'RequestGuid', 'RequestId']);
      const [pending] = await list();
      if (!pending) throw new Error('no pending request');
      expect(
        errorPaths(
          expectProblem(
            await decide({ RequestId: pending.Id, RequestGuid: pending.RequestGuid, Authorized: 'yes' }),
            400,
            'validation',
          ),
        ),
      ).toEqual(['Authorized']);
      expect(
        errorPaths(
          expectProblem(await decide({ RequestGuid: pending.RequestGuid, Authorized: true }), 400, 'validation'),
        ),
      ).toEqual(['RequestId']);
      // Nothing was decided.
      expect((await list()).map((item) => item.Id)).toContain(pending.Id);
    });

    it('is refused to a caller with only Read (403 naming Security and Write)', async () => {
      const auditor = await t.login(...AUDITOR);
      const [pending] = await list();
      if (!pending) throw new Error('no pending request');
      const problem = expectProblem(
        await decide({ RequestId: pending.Id, RequestGuid: pending.RequestGuid, Authorized: true }, auditor),
        403,
        'forbidden',
      );
      expect(problem.detail).toContain("'Write'");
      expect(problem.detail).toContain("'Security'");
      expect(problem).toMatchObject({ entity: 'Security', permission: 'Write' });
      expect((await list()).map((item) => item.Id)).toContain(pending.Id);
    });
  });
});
