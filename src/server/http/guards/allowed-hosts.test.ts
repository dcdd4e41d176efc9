import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { ADMIN, createTestApp, expectProblem, type TestApp } from '../../test/harness.ts';

/**
 * A web page whose name an attacker points at 127.0.0.1 (DNS rebinding) is, to the browser, the attacker's own
 * origin: its scripts may call the loopback service freely. Only the Host header still names the attacker's site.
 */
describe('Host names a loopback service answers', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const version = (host: string) => t.call({ method: 'GET', url: '/api/Consumer/Version', headers: { host } });
  const open = async (overrides: Partial<Config>) => {
    t = await createTestApp(overrides);
  };

  it('serves localhost, 127.0.0.1 and [::1] on any port, in any letter case', async () => {
    await open({ host: '127.0.0.1' });
    // What inject sends unless told otherwise: every other service test relies on it.
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Version' })).statusCode).toBe(200);
    for (const host of ['localhost', 'localhost:8080', 'LocalHost:1', '127.0.0.1', '127.0.0.1:4310', '[::1]:8080']) {
      expect((await version(host)).statusCode, host).toBe(200);
    }
  });

  it('answers any other name 421, on the API, the root interface, sign-in and pages alike', async () => {
    await open({ host: '127.0.0.1' });
    for (const host of ['rebind.attacker.example', 'localhost.attacker.example:8080', '127.0.0.1.nip.io', '[::2]']) {
      const problem = expectProblem(await version(host), 421, 'misdirected-request');
      expect(problem.detail, host).toContain('ALLOWED_HOSTS');
    }
    const host = 'rebind.attacker.example:8080';
    const signIn = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      headers: { host },
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expectProblem(signIn, 421, 'misdirected-request');
    const token = await t.login(...ADMIN);
    for (const [method, url] of [
      ['GET', '/Consumer/PushMessageUsers'],
      ['POST', '/api/Demo/Reset'],
      ['GET', '/push-users'],
    ] as const) {
      expectProblem(await t.call({ method, url, token, headers: { host } }), 421, 'misdirected-request');
    }
    // Refused answers still carry the security headers.
    expect((await version(host)).headers['x-content-type-options']).toBe('nosniff');
  });

  it('adds the names in ALLOWED_HOSTS, and the address it listens on', async () => {
    await open({ host: '127.0.0.2', allowedHosts: ['tachyon.test'] });
    for (const host of ['tachyon.test', 'TACHYON.test:8443', '127.0.0.2:8080', 'localhost']) {
      expect((await version(host)).statusCode, host).toBe(200);
    }
    expectProblem(await version('other.test'), 421, 'misdirected-request');
  });

  it.each([
    ['it listens beyond loopback', { host: '0.0.0.0' }],
    ['a trusted proxy forwards to it', { host: '127.0.0.1', trustProxy: ['127.0.0.1'] }],
  ])('answers any name when %s', async (_when, overrides: Partial<Config>) => {
    await open(overrides);
    expect((await version('tachyon.example.com')).statusCode).toBe(200);
  });

  it.each([
    ['on loopback', { host: '127.0.0.1' }],
    ['beyond loopback', { host: '0.0.0.0' }],
    ['behind a trusted proxy', { host: '127.0.0.1', trustProxy: ['127.0.0.1'] }],
  ])('takes a Host port only when it is all digits, %s', async (_where, overrides: Partial<Config>) => {
    await open(overrides);
    for (const host of ['localhost:@attacker.example', 'localhost:80x', 'localhost:8080@attacker.example', 'a@b']) {
      const problem = expectProblem(await version(host), 400, 'malformed-request');
      expect(problem.detail, host).toMatch(/port of digits/);
    }
    expect((await version('localhost:8080')).statusCode).toBe(200);
  });

  it('builds the enrolment link from PUBLIC_URL, whatever Host the request names', async () => {
    await open({ host: '0.0.0.0', publicUrl: 'https://tachyon.acme.example' });
    const token = await t.login(...ADMIN);
    for (const host of ['attacker.example', 'attacker.example:8443', 'localhost']) {
      const link = await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token, headers: { host } });
      expect(link.statusCode, link.body).toBe(201);
      expect(JSON.parse(link.body).Url).toMatch(/^https:\/\/tachyon\.acme\.example\/device#/);
    }
  });
});
