import { beforeAll, describe, expect, it } from 'vitest';
import { PushMessageUser, PushMessageUserList } from '../../shared/contract/index.ts';
import { ADMIN, AUDITOR, expectProblem, HELPDESK, OPERATOR, parseBody, useTestApp } from '../test/harness.ts';

const GUID = '00000000-0000-0000-0000-000000000000';
const READ_CALLS = {
  6: { method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests' },
  7: { method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests/1' },
  8: { method: 'GET', url: '/api/Consumer/PushMessageUsers' },
  9: { method: 'GET', url: '/api/Consumer/PushMessageUsers/1' },
} as const;
const WRITE_CALLS = {
  5: {
    method: 'POST',
    url: '/api/Consumer/Authentication/AuthorizeDevice',
    payload: { RequestId: 1, RequestGuid: GUID, Authorized: true },
  },
  10: { method: 'PUT', url: '/api/Consumer/PushMessageUsers', payload: { Id: 1, Status: 3 } },
} as const;
const SESSION_CALLS = {
  2: { method: 'POST', url: '/api/ConsumerAuthentication/Token', payload: { InstructionId: 1, Token: '1' } },
  3: { method: 'POST', url: '/api/Consumer/Authentication/Instruction/Token', payload: { Id: 1, Token: '1' } },
  4: { method: 'POST', url: '/api/Consumer/Authentication/ScheduledInstruction/Token', payload: { Id: 1, Token: '1' } },
  session: { method: 'GET', url: '/api/Consumer/Authentication/Session' },
  logout: { method: 'DELETE', url: '/api/Consumer/Authentication/Session' },
} as const;

describe('access rules (seed §5.4, SPEC §3 "Permissions")', () => {
  const { t } = useTestApp({ per: 'file' });
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    await t.addPrincipal('CORP\\writer', 'Writer#2026', ['Write']);
    await t.addPrincipal('CORP\\reader', 'Reader#2026', ['Read']);
    const accounts: Record<string, readonly [string, string]> = { ADMIN, HELPDESK, AUDITOR, OPERATOR };
    for (const [name, [userName, password]] of Object.entries(accounts)) {
      tokens[name] = await t.login(userName, password);
    }
    tokens.WRITER = await t.login('CORP\\writer', 'Writer#2026');
    tokens.READER = await t.login('CORP\\reader', 'Reader#2026');
  });

  const token = (name: string) => {
    const value = tokens[name];
    if (!value) throw new Error(`no token for ${name}`);
    return value;
  };

  it('answers 401 with WWW-Authenticate: Bearer on every non-anonymous endpoint without a session', async () => {
    for (const call of [...Object.values(READ_CALLS), ...Object.values(WRITE_CALLS), ...Object.values(SESSION_CALLS)]) {
      // Basic without a user:password pair (base64 of "userpass") is no credential at all.
      for (const authorization of [undefined, 'Bearer not-a-real-token', 'Bearer ', 'Basic dXNlcnBhc3M=']) {
        const response = await t.call({ ...call, headers: authorization ? { authorization } : {} });
        expectProblem(response, 401, 'unauthenticated');
        expect(String(response.headers['www-authenticate']), `${call.method} ${call.url}`).toMatch(/^Bearer\b/);
      }
    }
  });

  it('needs no session for #1 and the version document', async () => {
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Version' })).statusCode).toBe(200);
    const login = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expect(login.statusCode).toBe(200);
  });

  for (const n of [5, 10] as const) {
    it(`#${n} needs Write on Security: the auditor (Read only) gets 403 naming entity and permission`, async () => {
      for (const who of ['AUDITOR', 'READER', 'OPERATOR']) {
        const problem = expectProblem(await t.call({ ...WRITE_CALLS[n], token: token(who) }), 403, 'forbidden');
        expect(problem).toMatchObject({ entity: 'Security', permission: 'Write' });
        expect(problem.detail).toContain("'Write' permission on 'Security'");
      }
    });
  }

  for (const n of [6, 7, 8, 9] as const) {
    it(`#${n} needs Read on Security: the operator gets 403 naming entity and permission`, async () => {
      const problem = expectProblem(await t.call({ ...READ_CALLS[n], token: token('OPERATOR') }), 403, 'forbidden');
      expect(problem).toMatchObject({ entity: 'Security', permission: 'Read' });
      expect(problem.detail).toContain("'Read' permission on 'Security'");
      expect(problem.detail).toContain('DEMO\\operator');
      // Read is enough.
      for (const who of ['ADMIN', 'HELPDESK', 'AUDITOR', 'READER']) {
        expect((await t.call({ ...READ_CALLS[n], token: token(who) })).statusCode, who).toBe(200);
      }
    });
  }

  it('Write does not imply Read: a Write-only principal can update but not read', async () => {
    const writer = token('WRITER');
    for (const call of Object.values(READ_CALLS)) {
      const problem = expectProblem(await t.call({ ...call, token: writer }), 403, 'forbidden');
      expect(problem).toMatchObject({ entity: 'Security', permission: 'Read' });
    }
    const [user] = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: token('ADMIN') }),
      PushMessageUserList,
    );
    if (!user) throw new Error('no push users');
    const put = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: writer,
      payload: { Id: user.Id, Status: 2 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(parseBody(put, PushMessageUser).Status).toBe(2);
  });

  it('lets Write holders decide (#5) past the permission check', async () => {
    for (const who of ['ADMIN', 'HELPDESK', 'WRITER']) {
      const response = await t.call({ ...WRITE_CALLS[5], token: token(who) });
      // Request 1 exists but the GUID is not its: the permission check was passed.
      expectProblem(response, 400, 'request-guid-mismatch');
    }
  });

  it('lets any signed-in caller reach #2-#4 and the session endpoints', async () => {
    for (const who of ['OPERATOR', 'AUDITOR', 'WRITER']) {
      for (const n of [3, 4] as const) {
        expectProblem(await t.call({ ...SESSION_CALLS[n], token: token(who) }), 404, 'not-found');
      }
      expectProblem(await t.call({ ...SESSION_CALLS[2], token: token(who), version: '3.0' }), 404, 'not-found');
      expect((await t.call({ ...SESSION_CALLS.session, token: token(who) })).statusCode).toBe(200);
    }
  });

  it('takes grants from the principal: a new session after a grant is removed is refused', async () => {
    await t.addPrincipal('CORP\\temp', 'Temp#2026', ['Read']);
    expect((await t.call({ ...READ_CALLS[8], token: await t.login('CORP\\temp', 'Temp#2026') })).statusCode).toBe(200);
    await t.addPrincipal('CORP\\temp', 'Temp#2026', []);
    const problem = expectProblem(
      await t.call({ ...READ_CALLS[8], token: await t.login('CORP\\temp', 'Temp#2026') }),
      403,
      'forbidden',
    );
    expect(problem.detail).toContain('CORP\\temp');
  });
});
