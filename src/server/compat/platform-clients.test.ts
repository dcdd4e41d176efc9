import { afterEach, describe, expect, it } from 'vitest';
import { LoginResult, PushMessageUserList, SUPPORTED_VERSIONS } from '../../shared/contract/index.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  expectProblem,
  HELPDESK,
  parseBody,
  type TestApp,
  useTestApp,
} from '../test/harness.ts';

const basic = (userName: string, password: string) =>
  `Basic ${Buffer.from(`${userName}:${password}`, 'utf8').toString('base64')}`;
const challenges = (header: string | string[] | undefined) => (Array.isArray(header) ? header : header ? [header] : []);

/** Each seed endpoint at the site root, as the real platform serves it (SPEC §3 "Base URL and routing"). */
const ROOT_CALLS = [
  { method: 'GET', url: '/Consumer/Version' },
  { method: 'GET', url: '/consumer/pushmessageusers' },
  { method: 'GET', url: '/Consumer/PushMessageUsers/1' },
  { method: 'GET', url: '/Consumer/Authentication/AuthorizationRequests?getAll=true' },
  { method: 'GET', url: '/Consumer/Authentication/AuthorizationRequests/1' },
  { method: 'GET', url: '/Consumer/Authentication/Session' },
  { method: 'GET', url: '/Consumer/History?entity=PushMessageUser&id=1' },
  { method: 'PUT', url: '/Consumer/PushMessageUsers', payload: { Id: 1, Status: 1 } },
] as const;

describe('the interface at the site root (SPEC §3 "Base URL and routing")', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('serves every Consumer endpoint at /Consumer/... as under /api/Consumer/..., in any casing', async () => {
    for (const call of ROOT_CALLS) {
      const atRoot = await t.call({ ...call, token: tokens.admin });
      const underApi = await t.call({ ...call, url: `/api${call.url}`, token: tokens.admin });
      expect(atRoot.statusCode, call.url).toBe(200);
      expect(atRoot.headers['content-type'], call.url).toMatch(/^application\/json/);
      if (call.method === 'GET') expect(atRoot.body, call.url).toBe(underApi.body);
    }
  });

  it('signs in at POST /Consumer/Authentication and serves #2 at /ConsumerAuthentication/Token', async () => {
    const login = await t.call({
      method: 'POST',
      url: '/Consumer/Authentication',
      payload: { userName: AUDITOR[0], password: AUDITOR[1] },
    });
    expect(parseBody(login, LoginResult).Successful).toBe(true);
    for (const url of [
      '/ConsumerAuthentication/Token',
      '/Consumer/Authentication/Token',
      '/consumerauthentication/token',
    ]) {
      // No such instruction: a 404 problem from the endpoint itself, not an unknown route.
      const problem = expectProblem(
        await t.call({ method: 'POST', url, token: tokens.admin, payload: { InstructionId: 987654, Token: '123456' } }),
        404,
        'not-found',
      );
      expect(problem.detail, url).toContain('987654');
    }
  });

  it('answers unknown root Consumer paths with a problem, and keeps the demo actors under /api only', async () => {
    expectProblem(await t.call({ method: 'GET', url: '/Consumer/Nope', token: tokens.admin }), 404, 'not-found');
    expectProblem(await t.call({ method: 'POST', url: '/Demo/Reset', token: tokens.admin }), 404, 'not-found');
    expect((await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.admin })).statusCode).toBe(200);
  });
});

describe('a version segment after /Consumer/ (SPEC §3 "Versions")', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('selects the version at either prefix, and the answer names it', async () => {
    for (const version of SUPPORTED_VERSIONS) {
      for (const url of [`/Consumer/v${version}/Version`, `/api/consumer/V${version}/Version`]) {
        const response = await t.call({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['api-version'], url).toBe(version);
      }
    }
    const list = await t.call({ method: 'GET', url: '/Consumer/v3.2/PushMessageUsers', token: tokens.admin });
    expect(list.headers['api-version']).toBe('3.2');
    parseBody(list, PushMessageUserList);
  });

  it('applies the version rules: 404 unavailable-in-version, obsolete #2 marked from 3.1', async () => {
    const removed = expectProblem(
      await t.call({ method: 'GET', url: '/Consumer/v4.0/PushMessageUsers', token: tokens.admin }),
      404,
      'unavailable-in-version',
    );
    expect(removed.availableIn).toEqual(['3.0', '3.1', '3.2', '3.3']);
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Consumer/v3.0/Authentication/Instruction/Token',
        token: tokens.admin,
        payload: { Id: 1, Token: '123456' },
      }),
      404,
      'unavailable-in-version',
    );
    const obsolete = await t.call({
      method: 'POST',
      url: '/Consumer/v3.2/Authentication/Token',
      token: tokens.admin,
      payload: { InstructionId: 987654, Token: '123456' },
    });
    expect(obsolete.headers.deprecation).toBeDefined();
  });

  it('answers an unsupported segment with 400 unsupported-version listing the supported ones', async () => {
    const problem = expectProblem(
      await t.call({ method: 'GET', url: '/Consumer/v9.9/Version' }),
      400,
      'unsupported-version',
    );
    expect(problem.supportedVersions).toEqual([...SUPPORTED_VERSIONS]);
  });

  it('answers 400 version-conflict when the segment and Api-Version disagree, and accepts them agreeing', async () => {
    const conflict = expectProblem(
      await t.call({ method: 'GET', url: '/Consumer/v3.2/Version', version: '3.1' }),
      400,
      'version-conflict',
    );
    expect(conflict.detail).toContain('3.2');
    expect(conflict.detail).toContain('3.1');
    const agreeing = await t.call({ method: 'GET', url: '/Consumer/v3.2/Version', version: '3.2' });
    expect(agreeing.statusCode).toBe(200);
    expect(agreeing.headers['api-version']).toBe('3.2');
  });

  it('leaves segments that are not versions to the router', async () => {
    expectProblem(await t.call({ method: 'GET', url: '/Consumer/v3/Version' }), 404, 'not-found');
  });
});

describe('X-Tachyon-Authenticate (SPEC §3 "Authentication and sessions")', () => {
  const { t } = useTestApp({ per: 'file' });

  it('accepts the session token in X-Tachyon-Authenticate, as the platform clients send it', async () => {
    const token = await t.login(...ADMIN);
    const response = await t.call({
      method: 'GET',
      url: '/Consumer/PushMessageUsers',
      headers: { 'x-tachyon-authenticate': token },
    });
    expect(response.statusCode, response.body).toBe(200);
    // Both headers, as the dashboard sends them.
    const both = await t.call({
      method: 'GET',
      url: '/api/Consumer/Authentication/Session',
      token,
      headers: { 'x-tachyon-authenticate': token },
    });
    expect(both.statusCode).toBe(200);
  });

  it('serves an API account as it serves a person: its token in that header, its secret answering the Basic challenge', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: await t.login(...ADMIN),
      payload: { UserName: 'SVC\\platform', Kind: 'Api', Permissions: { Security: ['Read'], Accounts: [] } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const secret = created.json().Secret as string;
    const signIn = await t.call({
      method: 'POST',
      url: '/Consumer/Authentication',
      payload: { UserName: 'SVC\\platform', Password: secret },
    });
    const { Token } = parseBody(signIn, LoginResult);
    const byHeader = await t.call({
      method: 'GET',
      url: '/Consumer/PushMessageUsers',
      headers: { 'x-tachyon-authenticate': Token },
    });
    expect(byHeader.statusCode, byHeader.body).toBe(200);
    parseBody(byHeader, PushMessageUserList);
    // The SDK's way: no credentials, the challenge, then Basic with the secret.
    const first = await t.call({ method: 'GET', url: '/Consumer/PushMessageUsers' });
    expect(first.statusCode).toBe(401);
    expect(challenges(first.headers['www-authenticate']).some((offer) => offer.startsWith('Basic '))).toBe(true);
    const answered = await t.call({
      method: 'GET',
      url: '/Consumer/PushMessageUsers',
      headers: { authorization: basic('SVC\\platform', secret) },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // Its permissions hold as anyone's: Security Read cannot write.
    expectProblem(
      await t.call({
        method: 'PUT',
        url: '/Consumer/PushMessageUsers',
        payload: { Id: 1, Status: 2 },
        headers: { authorization: basic('SVC\\platform', secret) },
      }),
      403,
      'forbidden',
    );
  });

  it('answers an unknown or revoked token in that header with 401', async () => {
    const token = await t.login(...AUDITOR);
    const call = (value: string) =>
      t.call({ method: 'GET', url: '/Consumer/Authentication/Session', headers: { 'x-tachyon-authenticate': value } });
    expectProblem(await call('x'.repeat(43)), 401, 'unauthenticated');
    expectProblem(await call('not a token'), 401, 'unauthenticated');
    expect((await t.call({ method: 'DELETE', url: '/Consumer/Authentication/Session', token })).statusCode).toBe(204);
    expectProblem(await call(token), 401, 'unauthenticated');
  });
});

describe('HTTP Basic (SPEC §3 "Authentication and sessions")', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const sessionCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const list = (authorization?: string, headers: Record<string, string> = {}) =>
    t.call({
      method: 'GET',
      url: '/Consumer/PushMessageUsers',
      headers: { ...(authorization ? { authorization } : {}), ...headers },
    });

  it('offers Basic beside Bearer on 401 to clients that are not browsers, never to a browser', async () => {
    t = await createTestApp();
    const client = await list();
    expectProblem(client, 401, 'unauthenticated');
    expect(challenges(client.headers['www-authenticate'])).toEqual([
      'Bearer realm="tachyon"',
      'Basic realm="Tachyon", charset="UTF-8"',
    ]);
    for (const site of ['same-origin', 'cross-site', 'none']) {
      const browser = await list(undefined, { 'sec-fetch-site': site });
      expectProblem(browser, 401, 'unauthenticated');
      expect(challenges(browser.headers['www-authenticate'])).toEqual(['Bearer realm="tachyon"']);
    }
  });

  it('offers Basic only at the site root, where the SDK calls; never under /api, which still takes Basic', async () => {
    t = await createTestApp();
    const offersBasic = (response: { headers: Record<string, unknown> }) =>
      challenges(response.headers['www-authenticate'] as string | string[] | undefined).some((value) =>
        value.startsWith('Basic '),
      );
    for (const url of ['/Consumer/PushMessageUsers', '/Consumer/v3.2/PushMessageUsers', '/consumer/pushmessageusers']) {
      expect(offersBasic(await t.call({ method: 'GET', url })), url).toBe(true);
    }
    const token = { method: 'POST', payload: { InstructionId: 1, Token: '123456' } } as const;
    expect(offersBasic(await t.call({ ...token, url: '/ConsumerAuthentication/Token' }))).toBe(true);

    // Under /api the dashboard calls, from an origin a browser may not send Fetch Metadata to (plain HTTP): a
    // Basic challenge there would open the browser's own password prompt.
    for (const url of ['/api/Consumer/PushMessageUsers', '/api/Consumer/v3.2/PushMessageUsers', '/API/consumer/1']) {
      const response = await t.call({ method: 'GET', url: url.replace(/1$/, 'PUSHMESSAGEUSERS/1') });
      expectProblem(response, 401, 'unauthenticated');
      expect(offersBasic(response), url).toBe(false);
    }
    expect(offersBasic(await t.call({ ...token, url: '/api/ConsumerAuthentication/Token' }))).toBe(false);
    const wrong = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      headers: { authorization: basic(ADMIN[0], 'wrong') },
    });
    expectProblem(wrong, 401, 'invalid-credentials');
    expect(challenges(wrong.headers['www-authenticate'])).toEqual(['Bearer realm="tachyon"']);
    const accepted = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      headers: { authorization: basic(...HELPDESK) },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('authenticates a call with valid Basic credentials as that account, with its permissions', async () => {
    t = await createTestApp();
    const response = await list(basic(...HELPDESK));
    expect(response.statusCode, response.body).toBe(200);
    parseBody(response, PushMessageUserList);
    const session = await t.call({
      method: 'GET',
      url: '/api/Consumer/Authentication/Session',
      headers: { authorization: basic('demo\\AUDITOR', AUDITOR[1]) },
    });
    expect(session.json()).toMatchObject({ UserName: 'DEMO\\auditor' });
    // The auditor may read but not write.
    expectProblem(
      await t.call({
        method: 'PUT',
        url: '/Consumer/PushMessageUsers',
        payload: { Id: 1, Status: 2 },
        headers: { authorization: basic(...AUDITOR) },
      }),
      403,
      'forbidden',
    );
  });

  it('answers wrong credentials like a failed sign-in (401 invalid-credentials, with the challenge)', async () => {
    t = await createTestApp();
    for (const authorization of [basic(ADMIN[0], 'wrong'), basic('DEMO\\nobody', ADMIN[1]), basic(ADMIN[0], '')]) {
      const response = await list(authorization);
      expectProblem(response, 401, 'invalid-credentials');
      expect(challenges(response.headers['www-authenticate'])).toContain('Basic realm="Tachyon", charset="UTF-8"');
    }
  });

  it('is throttled like sign-in: 429 with Retry-After after the failures, for Basic and sign-in alike', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3, loginFailuresPerAddress: 1000 });
    for (let i = 0; i < 3; i += 1) expectProblem(await list(basic(ADMIN[0], 'wrong')), 401, 'invalid-credentials');
    const throttled = await list(basic(...ADMIN));
    expectProblem(throttled, 429, 'too-many-requests');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/Consumer/Authentication',
        payload: { UserName: ADMIN[0], Password: ADMIN[1] },
      }),
      429,
      'too-many-requests',
    );
  });

  it('remembers a verified credential: many calls, one sign-in', async () => {
    t = await createTestApp();
    const before = await sessionCount();
    for (let i = 0; i < 5; i += 1) expect((await list(basic(...ADMIN))).statusCode).toBe(200);
    expect(await sessionCount()).toBe(before + 1);
  });

  it('forgets a remembered credential at once when the password changes or the account is disabled', async () => {
    t = await createTestApp();
    await t.addPrincipal('CORP\\sdk', 'First#2026-pass', ['Read']);
    expect((await list(basic('CORP\\sdk', 'First#2026-pass'))).statusCode).toBe(200);
    await t.addPrincipal('CORP\\sdk', 'Second#2026-pass', ['Read']);
    expectProblem(await list(basic('CORP\\sdk', 'First#2026-pass')), 401, 'invalid-credentials');
    expect((await list(basic('CORP\\sdk', 'Second#2026-pass'))).statusCode).toBe(200);
    await t.database.db.updateTable('principals').set({ enabled: 0 }).where('user_key', '=', 'corp\\sdk').execute();
    expectProblem(await list(basic('CORP\\sdk', 'Second#2026-pass')), 401, 'invalid-credentials');
  });

  it('BASIC_AUTH=off: no Basic challenge, and Basic credentials are not accepted', async () => {
    t = await createTestApp({ basicAuth: false });
    const anonymous = await list();
    expect(challenges(anonymous.headers['www-authenticate'])).toEqual(['Bearer realm="tachyon"']);
    const refused = await list(basic(...ADMIN));
    expectProblem(refused, 401, 'unauthenticated');
    expect(challenges(refused.headers['www-authenticate'])).toEqual(['Bearer realm="tachyon"']);
    // Tokens still work.
    expect(
      (await t.call({ method: 'GET', url: '/Consumer/PushMessageUsers', token: await t.login(...ADMIN) })).statusCode,
    ).toBe(200);
  });
});

describe('Successful on #1 to #4 answers (SPEC §3)', () => {
  const { t } = useTestApp();

  it('#1 answers Successful: true beside the token', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expect(response.json()).toMatchObject({ Successful: true, TokenType: 'Bearer' });
  });
});
