import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, errorPaths, expectProblem, type TestApp, useTestApp } from '../test/harness.ts';

const LOGIN = '/api/Consumer/Authentication';

describe('errors are RFC 9457 problems (SPEC §3 "Errors and limits")', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('validation problems list each issue with its path', async () => {
    const response = await t.call({ method: 'POST', url: LOGIN, payload: { UserName: '', Password: 7 } });
    const problem = expectProblem(response, 400, 'validation');
    expect(errorPaths(problem)).toEqual(['Password', 'UserName']);
    for (const error of problem.errors ?? []) expect(error.message).not.toBe('');
  });

  it('answers malformed JSON with 400 malformed-request', async () => {
    for (const payload of ['{', '{"UserName": "a",}', "{'UserName': 'a'}", 'undefined']) {
      const response = await t.call({
        method: 'POST',
        url: LOGIN,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectProblem(response, 400, 'malformed-request');
    }
  });

  it('answers an empty JSON body with 400 malformed-request', async () => {
    const response = await t.call({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectProblem(response, 400, 'malformed-request');
  });

  it('accepts a JSON content type with parameters', async () => {
    const response = await t.call({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers a non-JSON content type with 415', async () => {
    const body = JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await t.call({ method: 'POST', url: LOGIN, headers: { 'content-type': type }, payload: body });
      expectProblem(response, 415, 'unsupported-media-type');
    }
    const put = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: { 'content-type': 'text/plain' },
      payload: '{"Id":1,"Status":2}',
    });
    expectProblem(put, 415, 'unsupported-media-type');
  });

  it('answers a body over 64 KiB with 413, and takes one just under', async () => {
    const big = JSON.stringify({ UserName: ADMIN[0], Password: 'x'.repeat(64 * 1024) });
    expect(big.length).toBeGreaterThan(64 * 1024);
    const response = await t.call({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expectProblem(response, 413, 'payload-too-large');

    const put = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ Id: 1, Status: 2, Padding: 'x'.repeat(70_000) }),
    });
    expectProblem(put, 413, 'payload-too-large');

    // 63 KiB of ignored fields: not too large, so the PUT goes through.
    const fits = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ Id: 1, Status: 2, Padding: 'x'.repeat(63 * 1024) }),
    });
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it('answers an unknown API route with a 404 problem, never HTML', async () => {
    for (const [method, url] of [
      ['GET', '/api/Consumer/NoSuchThing'],
      ['GET', '/api'],
      ['POST', '/api/Consumer/PushMessageUsers'],
      ['DELETE', '/api/Consumer/PushMessageUsers'],
      ['GET', '/api/Consumer/Authentication/AuthorizationRequests/1/extra'],
    ] as const) {
      const response = await t.call({ method, url, token: tokens.admin });
      const problem = expectProblem(response, 404, 'not-found');
      expect(response.body).not.toMatch(/<html/i);
      expect(problem.detail).toContain(method);
    }
  });

  it('answers unknown paths outside /api with a 404 problem when no dashboard is built', async () => {
    expectProblem(await t.call({ method: 'GET', url: '/no-such-page' }), 404, 'not-found');
  });

  it('does not echo an unbounded URL back', async () => {
    const url = `/api/${'a'.repeat(5000)}`;
    const problem = expectProblem(await t.call({ method: 'GET', url }), 404, 'not-found');
    expect(problem.detail?.length ?? 0).toBeLessThan(400);
  });
});

describe('5xx never leaks internals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        extend: (app) => {
          app.get('/api/Test/Throws', async () => {
            throw new Error('secret SQL text: select password_hash from principals');
          });
          app.get('/api/Test/Rejects', () => Promise.reject(new TypeError('secret stack detail')));
        },
      },
    );
  });
  afterAll(() => t.close());

  it('answers a thrown error with a 500 internal problem without message or stack', async () => {
    for (const url of ['/api/Test/Throws', '/api/Test/Rejects']) {
      const response = await t.call({ method: 'GET', url });
      const problem = expectProblem(response, 500, 'internal');
      expect(response.body).not.toMatch(/secret|password_hash|at .*\.ts|Error:/);
      expect(problem.detail).toMatch(/Reference: \S+/);
      expect(Object.keys(problem).sort()).toEqual(['ErrorCode', 'Message', 'detail', 'status', 'title', 'type']);
      // Security and version headers still apply.
      expect(response.headers['api-version']).toBe('3.3');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
