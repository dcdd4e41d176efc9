import { describe, expect, it } from 'vitest';
import { AuthorizationRequestList, PushMessageUser, PushMessageUserList } from '../../shared/contract/index.ts';
import { ADMIN, parseBody, useTestApp } from '../test/harness.ts';

describe('case-insensitive routes, query names and body names (SPEC §3 "Base URL and routing")', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('matches routes in any case', async () => {
    const users = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    for (const url of [
      '/api/consumer/pushmessageusers',
      '/API/CONSUMER/PUSHMESSAGEUSERS',
      '/Api/Consumer/pushMessageUsers',
    ]) {
      const response = await t.call({ method: 'GET', url, token: tokens.admin });
      expect(response.statusCode, url).toBe(200);
      expect(parseBody(response, PushMessageUserList), url).toEqual(users);
    }
    const first = users[0];
    if (!first) throw new Error('no push users');
    const one = await t.call({ method: 'GET', url: `/api/consumer/pushmessageusers/${first.Id}`, token: tokens.admin });
    expect(parseBody(one, PushMessageUser)).toEqual(first);
    const login = await t.call({
      method: 'POST',
      url: '/api/consumer/authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expect(login.statusCode).toBe(200);
    const requests = await t.call({
      method: 'GET',
      url: '/api/consumer/authentication/authorizationrequests',
      token: tokens.admin,
    });
    expect(requests.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/consumer/version' })).statusCode).toBe(200);
  });

  it('takes a trailing slash', async () => {
    expect(
      (await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers/', token: tokens.admin })).statusCode,
    ).toBe(200);
  });

  it('keeps the rules of the endpoint under any casing (version and access)', async () => {
    const unavailable = await t.call({
      method: 'GET',
      url: '/api/consumer/pushmessageusers',
      token: tokens.admin,
      version: '4.0',
    });
    expect(unavailable.statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/consumer/pushmessageusers' })).statusCode).toBe(401);
  });

  it('matches the getall query name in any case: getall, GetAll, getAll', async () => {
    const all = parseBody(
      await t.call({
        method: 'GET',
        url: '/api/Consumer/Authentication/AuthorizationRequests?getall=true',
        token: tokens.admin,
      }),
      AuthorizationRequestList,
    );
    const pending = all.filter((request) => request.Status === 'Pending');
    expect(pending.length).toBeLessThan(all.length);
    for (const name of ['getall', 'GetAll', 'getAll', 'GETALL']) {
      for (const [value, expected] of [
        ['true', all],
        ['false', pending],
      ] as const) {
        const response = await t.call({
          method: 'GET',
          url: `/api/consumer/authentication/authorizationrequests?${name}=${value}`,
          token: tokens.admin,
        });
        expect(parseBody(response, AuthorizationRequestList), `${name}=${value}`).toEqual(expected);
      }
    }
  });

  it('binds body property names in any case, the exact casing winning over a duplicate', async () => {
    const login = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { username: ADMIN[0], PASSWORD: ADMIN[1] },
    });
    expect(login.statusCode).toBe(200);
    const users = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    const user = users.find((candidate) => candidate.Status === 1);
    if (!user) throw new Error('no Active push user');
    const put = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      payload: { status: 3, Status: 2, ID: user.Id },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(parseBody(put, PushMessageUser).Status).toBe(2);
    const reversed = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      payload: { Status: 3, status: 1, id: user.Id },
    });
    expect(parseBody(reversed, PushMessageUser).Status).toBe(3);
  });
});
