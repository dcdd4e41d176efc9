import { describe, expect, it } from 'vitest';
import { ADMIN, expectProblem, useTestApp } from '../../test/harness.ts';

const basic = `Basic ${Buffer.from(`${ADMIN[0]}:${ADMIN[1]}`, 'utf8').toString('base64')}`;
const RESET = { method: 'POST', url: '/api/Demo/Reset' } as const;

/**
 * A page on another site can make the browser send a write with the credentials it keeps for this service (Basic
 * credentials, answered once): a form or a body-less fetch needs no CORS preflight. The service offers no CORS, so
 * no legitimate write comes from another site.
 */
describe('writes from other sites', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('refuses a write a browser marks cross-site or same-site, even with valid Basic credentials', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const response = await t.call({ ...RESET, headers: { authorization: basic, 'sec-fetch-site': site } });
      expectProblem(response, 403, 'cross-site-request');
    }
    for (const site of ['same-origin', 'none']) {
      const response = await t.call({ ...RESET, headers: { authorization: basic, 'sec-fetch-site': site } });
      expect(response.statusCode, site).toBe(204);
    }
  });

  it("refuses a write whose Origin is not the service's own, Origin: null included", async () => {
    for (const origin of ['https://attacker.example', 'http://localhost:8080', 'https://localhost', 'null', 'x']) {
      expectProblem(await t.call({ ...RESET, headers: { authorization: basic, origin } }), 403, 'cross-site-request');
    }
    // inject's Host is localhost:80: the default port is the same origin whether written or not.
    for (const origin of ['http://localhost', 'http://localhost:80', 'HTTP://LOCALHOST']) {
      expect((await t.call({ ...RESET, headers: { authorization: basic, origin } })).statusCode, origin).toBe(204);
    }
    const own = { origin: 'http://127.0.0.1:4310', host: '127.0.0.1:4310' };
    expect((await t.call({ ...RESET, token: tokens.admin, headers: own })).statusCode).toBe(204);
  });

  it('covers every write method and sign-in, whatever the credentials; reads stay open', async () => {
    const headers = { 'sec-fetch-site': 'cross-site' };
    for (const call of [
      { method: 'POST', url: '/api/Consumer/Authentication', payload: { UserName: ADMIN[0], Password: ADMIN[1] } },
      { method: 'PUT', url: '/Consumer/PushMessageUsers', payload: { Id: 1, Status: 2 } },
      { method: 'DELETE', url: '/api/Consumer/Authentication/Session' },
      { method: 'PATCH', url: '/api/Consumer/PushMessageUsers' },
    ] as const) {
      const response = await t.call({ ...call, token: tokens.admin, headers });
      expectProblem(response, 403, 'cross-site-request');
    }
    // The session survived the refused sign-out.
    const session = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: tokens.admin });
    expect(session.statusCode).toBe(200);
    const read = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: { ...headers, origin: 'https://attacker.example' },
    });
    expect(read.statusCode).toBe(200);
  });
});

describe('writes through a trusted proxy', () => {
  const { t, tokens } = useTestApp({ config: { trustProxy: 1 }, signIn: { admin: ADMIN }, per: 'file' });

  it('compare the Origin with the scheme and host the proxy forwards', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'tachyon.example.com' };
    const ok = await t.call({
      ...RESET,
      token: tokens.admin,
      headers: { ...forwarded, origin: 'https://tachyon.example.com' },
    });
    expect(ok.statusCode, ok.body).toBe(204);
    const plain = await t.call({
      ...RESET,
      token: tokens.admin,
      headers: { ...forwarded, origin: 'http://tachyon.example.com' },
    });
    expectProblem(plain, 403, 'cross-site-request');
  });
});
