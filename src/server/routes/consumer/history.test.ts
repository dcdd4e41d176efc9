import { describe, expect, it } from 'vitest';
import { AuthorizationRequest, HistoryList, PushMessageUserList } from '../../../shared/contract/index.ts';
import { ADMIN, demoCreateRequest, expectProblem, OPERATOR, parseBody, useTestApp } from '../../test/harness.ts';

const HISTORY = '/api/Consumer/History';

describe('history (extension): GET /Consumer/History', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN } });

  const history = async (entity: string, id: number) => {
    const response = await t.call({ method: 'GET', url: `${HISTORY}?entity=${entity}&id=${id}`, token: tokens.admin });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, HistoryList);
  };

  it('records creation, the decision with its comment, and the device registration it caused', async () => {
    const created = await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\new.person', DeviceType: 'Android' });
    const decided = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/AuthorizeDevice',
      token: tokens.admin,
      payload: { RequestId: created.Id, RequestGuid: created.RequestGuid, Authorized: true, Comment: 'Called them' },
    });
    parseBody(decided, AuthorizationRequest);

    const entries = await history('AuthorizationRequest', created.Id);
    expect(entries.map((entry) => [entry.Action, entry.From, entry.To])).toEqual([
      ['Created', null, 'Pending'],
      ['Decided', 'Pending', 'Authorized'],
    ]);
    expect(entries[1]).toMatchObject({ Comment: 'Called them', ChangedBy: 'DEMO\\admin' });

    const users = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    const registered = users.find((user) => user.UserName === 'ACME\\new.person');
    if (!registered) throw new Error('the authorized device was not registered');
    const registrations = await history('PushMessageUser', registered.Id);
    expect(registrations).toMatchObject([{ Action: 'Registered', From: null, To: 'Active', ChangedBy: 'DEMO\\admin' }]);
  });

  it('records each status change of a push user with who made it and the status it replaced', async () => {
    const put = (Status: number) =>
      t.call({ method: 'PUT', url: '/api/Consumer/PushMessageUsers', token: tokens.admin, payload: { Id: 1, Status } });
    expect((await put(2)).statusCode).toBe(200);
    expect((await put(3)).statusCode).toBe(200);
    const entries = await history('PushMessageUser', 1);
    expect(entries.map((entry) => [entry.Action, entry.From, entry.To, entry.ChangedBy])).toEqual([
      // The demo's own story of push user 1: its registration.
      ['Registered', null, 'Active', 'DEMO\\admin'],
      ['StatusChanged', 'Active', 'Disabled', 'DEMO\\admin'],
      ['StatusChanged', 'Disabled', 'Deleted', 'DEMO\\admin'],
    ]);
  });

  it('refuses unknown ids, bad queries, callers without Read, and API 4.0', async () => {
    expectProblem(
      await t.call({ method: 'GET', url: `${HISTORY}?entity=PushMessageUser&id=9999`, token: tokens.admin }),
      404,
      'not-found',
    );
    expectProblem(
      await t.call({ method: 'GET', url: `${HISTORY}?entity=Instruction&id=1`, token: tokens.admin }),
      400,
      'validation',
    );
    expectProblem(
      await t.call({ method: 'GET', url: `${HISTORY}?entity=PushMessageUser`, token: tokens.admin }),
      400,
      'validation',
    );
    const operator = await t.login(...OPERATOR);
    expectProblem(
      await t.call({ method: 'GET', url: `${HISTORY}?entity=PushMessageUser&id=1`, token: operator }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.call({
        method: 'GET',
        url: `${HISTORY}?entity=PushMessageUser&id=1`,
        token: tokens.admin,
        version: '4.0',
      }),
      404,
      'unavailable-in-version',
    );
  });

  it('demo reset puts the history back to the demo’s own and gives the demo data the same Ids again', async () => {
    const before = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    await demoCreateRequest(t, tokens.admin);
    await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      payload: { Id: 1, Status: 2 },
    });
    expect((await t.call({ method: 'POST', url: '/api/Demo/Reset', token: tokens.admin })).statusCode).toBe(204);
    const after = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    expect(after.map((user) => [user.Id, user.UserName])).toEqual(before.map((user) => [user.Id, user.UserName]));
    expect((await history('PushMessageUser', 1)).map((entry) => entry.Action)).toEqual(['Registered']);
  });
});
