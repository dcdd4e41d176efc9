import { describe, expect, it } from 'vitest';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import { ADMIN, expectProblem, useTestApp } from '../../test/harness.ts';
import { PASSWORD_ENDPOINTS } from './https-required.ts';
import { STRICT_TRANSPORT_SECURITY } from './security-headers.ts';

const PLAIN = { 'x-forwarded-proto': 'http' };
const SECURE = { 'x-forwarded-proto': 'https' };
const basic = (userName: string, password: string) =>
  `Basic ${Buffer.from(`${userName}:${password}`).toString('base64')}`;
const signIn = { UserName: ADMIN[0], Password: ADMIN[1] };
/** The admin's sign-in at the API base, with the headers (and anything else) a case sends it with. */
const signInRequest = (extra: { headers?: Record<string, string>; payload?: object; remoteAddress?: string } = {}) => ({
  method: 'POST' as const,
  url: '/api/Consumer/Authentication',
  payload: signIn,
  ...extra,
});
const STRONG = 'correct horse battery staple';

/** The refusal every password over plain HTTP gets: 403, and a detail saying to use HTTPS. */
function expectHttpsRequired(response: Parameters<typeof expectProblem>[0]) {
  const problem = expectProblem(response, 403, 'https-required');
  expect(problem.detail).toMatch(/over plain HTTP .*Send it again over HTTPS/);
}

describe('behind a trusted proxy that says the client came over plain HTTP', () => {
  const { t, tokens } = useTestApp({ config: { trustProxy: ['127.0.0.1'] }, signIn: { admin: ADMIN } });

  it('refuses a sign-in, at both base URLs, before checking the password', async () => {
    for (const url of ['/api/Consumer/Authentication', '/Consumer/Authentication']) {
      expectHttpsRequired(await t.call({ method: 'POST', url, headers: PLAIN, payload: signIn }));
    }
    // A wrong password gets the same answer: nothing is confirmed over plain HTTP.
    expectHttpsRequired(await t.call(signInRequest({ headers: PLAIN, payload: { ...signIn, Password: 'wrong' } })));
  });

  it('takes a sign-in the proxy received over HTTPS, and says Strict-Transport-Security', async () => {
    const response = await t.call(signInRequest({ headers: SECURE }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it('takes a sign-in the proxy says nothing about, without Strict-Transport-Security', async () => {
    const response = await t.call(signInRequest());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('reads the last X-Forwarded-Proto, the one the trusted proxy added', async () => {
    expectHttpsRequired(await t.call(signInRequest({ headers: { 'x-forwarded-proto': 'https, http' } })));
    const response = await t.call(signInRequest({ headers: { 'x-forwarded-proto': 'http, HTTPS' } }));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses HTTP Basic credentials on any request, and takes them over HTTPS', async () => {
    const authorization = basic(...ADMIN);
    for (const url of ['/api/Consumer/PushMessageUsers', '/Consumer/v3.2/PushMessageUsers', '/api/Consumer/Version']) {
      expectHttpsRequired(await t.call({ method: 'GET', url, headers: { ...PLAIN, authorization } }));
    }
    const secure = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      headers: { ...SECURE, authorization },
    });
    expect(secure.statusCode, secure.body).toBe(200);
    expect(secure.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it('serves a session token as before (it is no password, and ends with the session)', async () => {
    const response = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: PLAIN,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses a password change, a password reset and a new account with a password', async () => {
    const token = tokens.admin;
    expectHttpsRequired(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts/Me/Password',
        token,
        headers: PLAIN,
        payload: { OldPassword: ADMIN[1], NewPassword: STRONG },
      }),
    );
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token,
      headers: SECURE,
      payload: { UserName: 'CORP\\ana', Password: STRONG },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { Id } = created.json<{ Id: number }>();
    expectHttpsRequired(
      await t.call({
        method: 'POST',
        url: `/api/Admin/Accounts/${Id}/Password`,
        token,
        headers: PLAIN,
        payload: { Password: `${STRONG} again` },
      }),
    );
    expectHttpsRequired(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token,
        headers: PLAIN,
        payload: { UserName: 'CORP\\bo', Password: STRONG },
      }),
    );
    // Nothing of it happened: the old password still signs in.
    expect(await t.login('CORP\\ana', STRONG)).toBeTruthy();
  });
});

describe('X-Forwarded-Proto from someone who is not a trusted proxy', () => {
  const { t } = useTestApp({ config: { trustProxy: ['10.0.0.5'] }, per: 'file' });

  it('is not believed: a direct plain-HTTP client cannot claim HTTPS for its password', async () => {
    expectHttpsRequired(await t.call(signInRequest({ headers: SECURE })));
  });

  it('is believed from the trusted proxy', async () => {
    const response = await t.call(signInRequest({ headers: SECURE, remoteAddress: '10.0.0.5' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });
});

describe('without TRUST_PROXY', () => {
  const { t } = useTestApp({ per: 'file' });

  it('ignores X-Forwarded-Proto: nobody is trusted to say it', async () => {
    const plain = await t.call(signInRequest({ headers: PLAIN }));
    expect(plain.statusCode, plain.body).toBe(200);
    const claimed = await t.call(signInRequest({ headers: SECURE }));
    expect(claimed.statusCode).toBe(200);
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});

/** The names of an object schema's properties (zod mini keeps them in its definition). */
function bodyProperties(endpoint: Endpoint): string[] {
  const shape = (endpoint.body as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def
    ?.shape;
  return shape ? Object.keys(shape) : [];
}

describe('the endpoints that carry a password', () => {
  it('are every endpoint whose body has a password property, and only those', () => {
    const withPassword = Object.values(endpoints as Record<string, Endpoint>).filter((endpoint) =>
      bodyProperties(endpoint).some((name) => /password/i.test(name)),
    );
    expect(withPassword).toContain(endpoints.login);
    expect(new Set(withPassword)).toEqual(PASSWORD_ENDPOINTS);
  });
});
