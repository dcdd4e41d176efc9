import { describe, expect, it } from 'vitest';
import {
  PushMessageUser,
  PushMessageUserDetail,
  PushMessageUserList,
  TIMESTAMP_PATTERN,
} from '../../../shared/contract/index.ts';
import { ADMIN, AUDITOR, errorPaths, expectProblem, parseBody, useTestApp } from '../../test/harness.ts';

const URL = '/api/Consumer/PushMessageUsers';
const FIELDS = [
  'CreatedTimeStampUtc',
  'DeviceType',
  'Id',
  'Manufacturer',
  'Model',
  'ModifiedTimestampUtc',
  'OsVersion',
  'Status',
  'UserName',
];

describe('push message users: #8, #9, #10', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN } });

  const list = async (token = tokens.admin) => {
    const response = await t.call({ method: 'GET', url: URL, token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, PushMessageUserList);
  };
  const getOne = (id: number | string) => t.call({ method: 'GET', url: `${URL}/${id}`, token: tokens.admin });
  const put = (payload: unknown, token = tokens.admin) =>
    t.call({ method: 'PUT', url: URL, payload: payload as object, token });
  const someUser = async (status?: number) => {
    const user = (await list()).find((candidate) => status === undefined || candidate.Status === status);
    if (!user) throw new Error(`no push user with status ${status}`);
    return user;
  };

  describe('#8 GET /Consumer/PushMessageUsers', () => {
    it('answers a bare array of every user, with the seed field names (CreatedTimeStampUtc), ordered by Id', async () => {
      const response = await t.call({ method: 'GET', url: URL, token: tokens.admin });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const raw = response.json<Array<Record<string, unknown>>>();
      expect(Array.isArray(raw)).toBe(true);
      for (const item of raw) {
        expect(Object.keys(item).sort()).toEqual(FIELDS);
        expect(item.CreatedTimeStampUtc).toMatch(TIMESTAMP_PATTERN);
        expect(item.ModifiedTimestampUtc).toMatch(TIMESTAMP_PATTERN);
        expect(item.UserName).toMatch(/^[^\\]+\\[^\\]+$/);
      }
      const users = parseBody(response, PushMessageUserList);
      expect(users.length).toBeGreaterThanOrEqual(8);
      // Demo data: all three statuses.
      expect(new Set(users.map((user) => user.Status))).toEqual(new Set([1, 2, 3]));
      const ids = users.map((user) => user.Id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('keeps deleted users in the list (Deleted is a state, not removal)', async () => {
      const user = await someUser(1);
      expect((await put({ Id: user.Id, Status: 3 })).statusCode).toBe(200);
      const after = await list();
      expect(after.find((candidate) => candidate.Id === user.Id)?.Status).toBe(3);
      expect((await getOne(user.Id)).statusCode).toBe(200);
    });

    it('answers an ETag, 304 for If-None-Match, and a new ETag after a status change', async () => {
      const first = await t.call({ method: 'GET', url: URL, token: tokens.admin });
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[^"]+"$/);
      const notModified = await t.call({
        method: 'GET',
        url: URL,
        token: tokens.admin,
        headers: { 'if-none-match': etag },
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      // Weak comparison and lists of tags, as RFC 9110 allows.
      const weak = await t.call({
        method: 'GET',
        url: URL,
        token: tokens.admin,
        headers: { 'if-none-match': `"other", W/${etag}` },
      });
      expect(weak.statusCode).toBe(304);

      const user = await someUser(1);
      expect((await put({ Id: user.Id, Status: 2 })).statusCode).toBe(200);
      const changed = await t.call({
        method: 'GET',
        url: URL,
        token: tokens.admin,
        headers: { 'if-none-match': etag },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(parseBody(changed, PushMessageUserList).find((candidate) => candidate.Id === user.Id)?.Status).toBe(2);
    });

    it('answers 403 to a caller without Read (operator)', async () => {
      const operator = await t.login('DEMO\\operator', 'Operator#2026');
      const problem = expectProblem(await t.call({ method: 'GET', url: URL, token: operator }), 403, 'forbidden');
      expect(problem).toMatchObject({ entity: 'Security', permission: 'Read' });
    });
  });

  describe('#9 GET /Consumer/PushMessageUsers/{id}', () => {
    it('answers the user with that Id, as in the list', async () => {
      for (const user of (await list()).slice(0, 3)) {
        const response = await getOne(user.Id);
        expect(response.statusCode).toBe(200);
        // The list's fields, and when its device enrolled and was last seen (null: demo registrations have none).
        expect(Object.keys(response.json()).sort()).toEqual(
          [...FIELDS, 'EnrolledTimestampUtc', 'LastSeenTimestampUtc'].sort(),
        );
        expect(parseBody(response, PushMessageUserDetail)).toEqual({
          ...user,
          EnrolledTimestampUtc: null,
          LastSeenTimestampUtc: null,
        });
      }
    });

    it('answers 404 for an unknown id', async () => {
      expectProblem(await getOne(987_654), 404, 'not-found');
    });

    it('answers 400 for an id that is not a positive integer', async () => {
      for (const id of ['abc', '2.0', '0', '-3']) {
        expect(errorPaths(expectProblem(await getOne(id), 400, 'validation'))).toEqual(['id']);
      }
    });
  });

  describe('#10 PUT /Consumer/PushMessageUsers', () => {
    it('changes Status and stamps ModifiedTimestampUtc with now, nothing else', async () => {
      const user = await someUser(1);
      t.clock.advanceMinutes(7);
      for (const status of [2, 3, 1] as const) {
        const response = await put({ Id: user.Id, Status: status });
        expect(response.statusCode, response.body).toBe(200);
        expect(Object.keys(response.json()).sort()).toEqual(FIELDS);
        const expected = { ...user, Status: status, ModifiedTimestampUtc: t.clock.stamp() };
        expect(parseBody(response, PushMessageUser)).toEqual(expected);
        expect(parseBody(await getOne(user.Id), PushMessageUser)).toEqual(expected);
        t.clock.advanceMinutes(1);
      }
    });

    it('ignores every other field sent, whatever its value or type', async () => {
      const user = await someUser(2);
      const others = (await list()).filter((candidate) => candidate.Id !== user.Id);
      const response = await put({
        Id: user.Id,
        Status: 1,
        UserName: 123,
        DeviceType: {},
        CreatedTimeStampUtc: 'x',
        ModifiedTimestampUtc: '1999-01-01 00:00:00.000',
        CreatedTimestampUtc: null,
        Extra: [1, 2, 3],
      });
      expect(response.statusCode, response.body).toBe(200);
      const expected = { ...user, Status: 1, ModifiedTimestampUtc: t.clock.stamp() };
      expect(parseBody(response, PushMessageUser)).toEqual(expected);
      expect(parseBody(await getOne(user.Id), PushMessageUser)).toEqual(expected);
      // No other row changed either.
      expect((await list()).filter((candidate) => candidate.Id !== user.Id)).toEqual(others);
    });

    it('ignores valid-looking values in other fields too, and the whole resource may be sent back', async () => {
      const user = await someUser(1);
      const response = await put({ ...user, UserName: 'EVIL\\mallory', DeviceType: 'Windows Phone', Status: 2 });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, PushMessageUser)).toEqual({
        ...user,
        Status: 2,
        ModifiedTimestampUtc: t.clock.stamp(),
      });
    });

    it('matches body property names case-insensitively', async () => {
      const user = await someUser(1);
      const response = await put({ id: user.Id, status: 3 });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, PushMessageUser).Status).toBe(3);
    });

    it('answers 400 when Id is missing or not an integer', async () => {
      for (const payload of [
        { Status: 1 },
        { Id: 'abc', Status: 1 },
        { Id: 1.5, Status: 1 },
        { Id: null, Status: 1 },
        { Id: 0, Status: 1 },
      ]) {
        expect(errorPaths(expectProblem(await put(payload), 400, 'validation'))).toEqual(['Id']);
      }
    });

    it('answers 400 when Status is not 1, 2 or 3', async () => {
      const user = await someUser();
      for (const status of [0, 4, -1, 1.5, '1', 'Active', null]) {
        const problem = expectProblem(await put({ Id: user.Id, Status: status }), 400, 'validation');
        expect(errorPaths(problem)).toEqual(['Status']);
      }
      expect(errorPaths(expectProblem(await put({ Id: user.Id }), 400, 'validation'))).toEqual(['Status']);
      // Nothing changed.
      expect(parseBody(await getOne(user.Id), PushMessageUser)).toEqual(user);
    });

    it('answers 400 for a body that is not an object', async () => {
      for (const payload of [[], 'text', 42]) {
        const response = await t.call({
          method: 'PUT',
          url: URL,
          token: tokens.admin,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expectProblem(response, 400, 'validation');
      }
    });

    it('answers 404 for an unknown Id', async () => {
      const problem = expectProblem(await put({ Id: 987_654, Status: 2 }), 404, 'not-found');
      expect(problem.detail).toContain('987654');
    });

    it('is refused to a caller with only Read (403 naming Security and Write), changing nothing', async () => {
      const auditor = await t.login(...AUDITOR);
      const user = await someUser(1);
      const problem = expectProblem(await put({ Id: user.Id, Status: 3 }, auditor), 403, 'forbidden');
      expect(problem.detail).toContain("'Write'");
      expect(problem.detail).toContain("'Security'");
      expect(problem).toMatchObject({ entity: 'Security', permission: 'Write' });
      expect(parseBody(await getOne(user.Id), PushMessageUser)).toEqual(user);
    });
  });
});
