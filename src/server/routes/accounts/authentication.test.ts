import { afterEach, describe, expect, it } from 'vitest';
import { LoginResult, Session, TIMESTAMP_PATTERN } from '../../../shared/contract/index.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  errorPaths,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  type TestApp,
  useTestApp,
} from '../../test/harness.ts';

const LOGIN = '/api/Consumer/Authentication';
const SESSION = '/api/Consumer/Authentication/Session';

describe('#1 POST /Consumer/Authentication', () => {
  const { t } = useTestApp();

  const login = (payload: unknown, remoteAddress?: string) =>
    t.call({ method: 'POST', url: LOGIN, payload: payload as object, ...(remoteAddress ? { remoteAddress } : {}) });

  it('answers 200 with a bearer token, its expiry, the user name and the Security grants', async () => {
    const response = await login({ UserName: ADMIN[0], Password: ADMIN[1] });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = parseBody(response, LoginResult);
    expect(Object.keys(body).sort()).toEqual([
      'ExpiresUtc',
      'Permissions',
      'Successful',
      'Token',
      'TokenType',
      'UserName',
    ]);
    expect(body.TokenType).toBe('Bearer');
    // 256 random bits, base64url.
    expect(body.Token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.UserName).toBe('DEMO\\admin');
    expect(body.Permissions).toEqual([
      { Entity: 'Accounts', Permissions: ['Read', 'Write'] },
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
    ]);
    // Idle expiry: 30 minutes from now on the fake clock.
    t.clock.advanceMinutes(30);
    expect(body.ExpiresUtc).toBe(t.clock.stamp());
    expect(body.ExpiresUtc).toMatch(TIMESTAMP_PATTERN);
  });

  it('issues a different token on every sign-in', async () => {
    const first = await t.login(...ADMIN);
    const second = await t.login(...ADMIN);
    expect(first).not.toBe(second);
  });

  it("lists each demo account's permissions as SPEC §3 documents them", async () => {
    const grants = async (account: readonly [string, string]) =>
      parseBody(await login({ UserName: account[0], Password: account[1] }), LoginResult).Permissions;
    expect(await grants(HELPDESK)).toEqual([
      { Entity: 'Accounts', Permissions: ['Contain'] },
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
    ]);
    expect(await grants(AUDITOR)).toEqual([{ Entity: 'Security', Permissions: ['Read'] }]);
    expect(await grants(OPERATOR)).toEqual([]);
  });

  it('matches body property names and the user name case-insensitively', async () => {
    const response = await login({ userName: 'demo\\ADMIN', password: ADMIN[1] });
    expect(response.statusCode, response.body).toBe(200);
    expect(parseBody(response, LoginResult).UserName).toBe('DEMO\\admin');
  });

  it('never matches the password case-insensitively', async () => {
    expectProblem(await login({ UserName: ADMIN[0], Password: ADMIN[1].toLowerCase() }), 401, 'invalid-credentials');
  });

  it('answers wrong user name and wrong password with the same 401 problem', async () => {
    const wrongPassword = await login({ UserName: ADMIN[0], Password: 'not-the-password' });
    const wrongUser = await login({ UserName: 'DEMO\\nobody', Password: ADMIN[1] });
    const body = expectProblem(wrongPassword, 401, 'invalid-credentials');
    expectProblem(wrongUser, 401, 'invalid-credentials');
    expect(wrongUser.body).toBe(wrongPassword.body);
    expect(body.detail).not.toContain('admin');
  });

  it('answers a missing field with a validation problem naming it', async () => {
    const problem = expectProblem(await login({ UserName: ADMIN[0] }), 400, 'validation');
    expect(errorPaths(problem)).toEqual(['Password']);
    const both = expectProblem(await login({}), 400, 'validation');
    expect(errorPaths(both)).toEqual(['Password', 'UserName']);
  });

  it('answers a field of the wrong type with a validation problem', async () => {
    const problem = expectProblem(await login({ UserName: 42, Password: ADMIN[1] }), 400, 'validation');
    expect(errorPaths(problem)).toEqual(['UserName']);
  });
});

describe('#1 password hashes made at an older cost', () => {
  it('are brought to the current cost by the next successful sign-in, and keep working', async () => {
    // The harness adds principals at the cheapest cost; this service is set to twice that.
    const t = await createTestApp({ passwordHashCost: 2048 });
    try {
      await t.addPrincipal('DEMO\\legacy', 'Legacy#2026', ['Read']);
      const storedHash = async () =>
        (
          await t.database.db
            .selectFrom('principals')
            .select('password_hash')
            .where('user_key', '=', 'demo\\legacy')
            .executeTakeFirstOrThrow()
        ).password_hash;
      expect((await storedHash()).split('$')[1]).toBe('1024');

      const wrong = await t.call({
        method: 'POST',
        url: LOGIN,
        payload: { UserName: 'DEMO\\legacy', Password: 'nope' },
      });
      expect(wrong.statusCode).toBe(401);
      expect((await storedHash()).split('$')[1]).toBe('1024');

      await t.login('DEMO\\legacy', 'Legacy#2026');
      expect((await storedHash()).split('$')[1]).toBe('2048');
      await t.login('DEMO\\legacy', 'Legacy#2026');
    } finally {
      await t.close();
    }
  });
});

describe('#1 throttling of failed sign-ins (429)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const login = (userName: string, password: string, remoteAddress = '10.0.0.1') =>
    t.call({ method: 'POST', url: LOGIN, payload: { UserName: userName, Password: password }, remoteAddress });

  const expectThrottled = (response: Awaited<ReturnType<typeof login>>) => {
    expectProblem(response, 429, 'too-many-requests');
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(t.config.loginFailureWindowSeconds);
  };

  it('refuses a user name from the address its failures came from, even with the right password', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3, loginFailuresPerAddress: 1000 });
    for (let i = 0; i < 3; i += 1) expectProblem(await login(ADMIN[0], 'wrong'), 401, 'invalid-credentials');
    expectThrottled(await login(ADMIN[0], ADMIN[1]));
    // The budget is per user name (compared case-insensitively) and address.
    expectThrottled(await login('demo\\Admin', ADMIN[1]));
    // Other user names from that address are not affected, nor that user name from another address.
    expect((await login(...HELPDESK)).statusCode).toBe(200);
    expect((await login(ADMIN[0], ADMIN[1], '10.0.0.2')).statusCode).toBe(200);
  });

  it('an attacker at one address cannot keep the real user out (lock-out as a weapon)', async () => {
    t = await createTestApp({ loginFailuresPerUser: 5, loginFailuresPerAddress: 20 });
    const attacker = '203.0.113.66';
    const answers = [];
    for (let i = 0; i < 40; i += 1) answers.push((await login(ADMIN[0], `guess-${i}`, attacker)).statusCode);
    // Five guesses tried, then the attacker's address is refused for this user name: slowed to nothing.
    expect(answers.filter((status) => status === 401)).toHaveLength(5);
    expect(answers.slice(5).every((status) => status === 429)).toBe(true);
    // The real user, from their own address, with the right password: straight in.
    expect((await login(ADMIN[0], ADMIN[1], '198.51.100.7')).statusCode).toBe(200);
  });

  it('paces a user name guessed from many addresses, never locking it out for long', async () => {
    t = await createTestApp({
      loginFailuresPerUser: 5,
      loginFailuresPerAddress: 20,
      loginSlowAfterFailures: 10,
      loginSlowSeconds: 5,
    });
    // A distributed guesser: each address stays under its own budgets.
    for (let i = 0; i < 10; i += 1) {
      expectProblem(await login(ADMIN[0], 'guess', `203.0.113.${i + 1}`), 401, 'invalid-credentials');
    }
    // Past the user name's budget from everywhere: one attempt per pace period, whoever makes it.
    expectProblem(await login(ADMIN[0], 'guess', '203.0.113.50'), 401, 'invalid-credentials');
    const paced = await login(ADMIN[0], ADMIN[1], '198.51.100.7');
    expectProblem(paced, 429, 'too-many-requests');
    expect(Number(paced.headers['retry-after'])).toBeLessThanOrEqual(5);
    // Other user names are not paced.
    expect((await login(...HELPDESK)).statusCode).toBe(200);
  });

  it('forgets failures of a user name after a successful sign-in', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3, loginFailuresPerAddress: 1000 });
    for (let i = 0; i < 2; i += 1) await login(ADMIN[0], 'wrong');
    expect((await login(...ADMIN)).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) expectProblem(await login(ADMIN[0], 'wrong'), 401, 'invalid-credentials');
    expect((await login(...ADMIN)).statusCode).toBe(200);
  });

  it('refuses a client address after its failures, whatever user name it tries', async () => {
    t = await createTestApp({ loginFailuresPerUser: 1000, loginFailuresPerAddress: 3 });
    for (const name of ['DEMO\\a', 'DEMO\\b', 'DEMO\\c']) {
      expectProblem(await login(name, 'wrong'), 401, 'invalid-credentials');
    }
    expectThrottled(await login(...ADMIN));
    expectThrottled(await login('DEMO\\d', 'wrong'));
    // Another address is not affected.
    expect((await login(ADMIN[0], ADMIN[1], '10.0.0.2')).statusCode).toBe(200);
  });

  it('caps sign-in attempts per address per minute, successful or not', async () => {
    t = await createTestApp({ loginRatePerMinute: 2 });
    expect((await login(...ADMIN)).statusCode).toBe(200);
    expect((await login(...ADMIN)).statusCode).toBe(200);
    const refused = await login(...ADMIN);
    expectProblem(refused, 429, 'too-many-requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('sessions: GET and DELETE /Consumer/Authentication/Session, and 401', () => {
  const { t } = useTestApp();

  const session = (token?: string, method: 'GET' | 'DELETE' = 'GET') => t.call({ method, url: SESSION, token });

  const expectUnauthenticated = (response: Awaited<ReturnType<typeof session>>) => {
    expectProblem(response, 401, 'unauthenticated');
    expect(String(response.headers['www-authenticate'])).toMatch(/^Bearer\b/);
  };

  it('GET answers the current session: the login answer without the token', async () => {
    const login = await t.call({ method: 'POST', url: LOGIN, payload: { UserName: AUDITOR[0], Password: AUDITOR[1] } });
    const { Token, Successful, ...rest } = parseBody(login, LoginResult);
    const response = await session(Token);
    expect(response.statusCode).toBe(200);
    const body = parseBody(response, Session);
    expect(Object.keys(response.json()).sort()).toEqual(['ExpiresUtc', 'Permissions', 'TokenType', 'UserName']);
    expect(Successful).toBe(true);
    expect(body).toEqual(rest);
  });

  it('slides the idle expiry forward while the session is used', async () => {
    const token = await t.login(...ADMIN);
    t.clock.advanceMinutes(20);
    const body = parseBody(await session(token), Session);
    t.clock.advanceMinutes(30);
    expect(body.ExpiresUtc).toBe(t.clock.stamp());
  });

  it('DELETE revokes the session: 204, then 401 on any call with that token', async () => {
    const token = await t.login(...ADMIN);
    const other = await t.login(...ADMIN);
    const response = await session(token, 'DELETE');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectUnauthenticated(await session(token));
    expectUnauthenticated(await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token }));
    expectUnauthenticated(await session(token, 'DELETE'));
    // Only that session ends.
    expect((await session(other)).statusCode).toBe(200);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a token', async () => {
    expectUnauthenticated(await session());
    expectUnauthenticated(await session(undefined, 'DELETE'));
  });

  it('answers 401 for an unknown token and for a credential that is not a bearer token', async () => {
    expectUnauthenticated(await session('x'.repeat(43)));
    const token = await t.login(...ADMIN);
    expectUnauthenticated(
      await t.call({ method: 'GET', url: SESSION, headers: { authorization: `Negotiate ${token}` } }),
    );
    expectUnauthenticated(await t.call({ method: 'GET', url: SESSION, headers: { authorization: token } }));
  });

  it('expires after 30 minutes idle', async () => {
    const token = await t.login(...ADMIN);
    t.clock.advanceMinutes(29);
    expect((await session(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(29.9);
    expect((await session(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(30);
    expectUnauthenticated(await session(token));
    // Once expired, it stays expired.
    expectUnauthenticated(await session(token));
  });

  it('expires 12 hours after sign-in even while kept alive', async () => {
    const token = await t.login(...ADMIN);
    // 28 × 25 minutes = 11 h 40 min, never idle for 30 minutes.
    for (let i = 0; i < 28; i += 1) {
      t.clock.advanceMinutes(25);
      expect((await session(token)).statusCode).toBe(200);
    }
    t.clock.advanceMinutes(19);
    const last = parseBody(await session(token), Session);
    // The expiry shown is the absolute one once that comes first.
    t.clock.advanceMinutes(1);
    expect(last.ExpiresUtc).toBe(t.clock.stamp());
    expectUnauthenticated(await session(token));
    // Signing in again starts a new session.
    expect((await session(await t.login(...ADMIN))).statusCode).toBe(200);
  });
});
