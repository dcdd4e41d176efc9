import { describe, expect, it } from 'vitest';
import { type Endpoint, endpointPath, endpoints } from '../../shared/contract/index.ts';
import { ADMIN, OPERATOR, useTestApp } from '../test/harness.ts';

const PERSONAL = 'no-store';
const REVALIDATED = 'private, no-cache';

/** The Vary header's names, lower case. */
const varied = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

describe('Cache-Control of personal answers', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN, operator: OPERATOR }, per: 'file' });

  it('keeps every answer a caller signed in for out of caches: an account, its history, a push user, a request', async () => {
    for (const url of [
      '/api/Admin/Accounts',
      '/api/Admin/Accounts/1',
      '/api/Admin/Accounts/1/History',
      '/api/Admin/Accounts/History',
      '/api/Consumer/PushMessageUsers/1',
      '/Consumer/PushMessageUsers/1',
      '/api/Consumer/Authentication/AuthorizationRequests/1',
      '/api/Consumer/History?entity=PushMessageUser&id=1',
    ]) {
      const response = await t.call({ method: 'GET', url, token: tokens.admin });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(PERSONAL);
    }
    const put = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      payload: { Id: 1, Status: 1 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.headers['cache-control']).toBe(PERSONAL);
  });

  it('and their refusals: 401, 403 naming the caller, 404', async () => {
    const user = '/api/Consumer/PushMessageUsers/1';
    expect((await t.call({ method: 'GET', url: user })).headers['cache-control']).toBe(PERSONAL);
    const forbidden = await t.call({ method: 'GET', url: user, token: tokens.operator });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['cache-control']).toBe(PERSONAL);
    const missing = await t.call({ method: 'GET', url: `${user}987654`, token: tokens.admin });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe(PERSONAL);
  });

  it('lets the lists with ETags stay in the caller’s own browser, revalidated, keyed by the credentials', async () => {
    for (const url of ['/api/Consumer/PushMessageUsers', '/api/Consumer/Authentication/AuthorizationRequests']) {
      const list = await t.call({ method: 'GET', url, token: tokens.admin });
      const again = await t.call({
        method: 'GET',
        url,
        token: tokens.admin,
        headers: { 'if-none-match': String(list.headers.etag) },
      });
      expect(again.statusCode, url).toBe(304);
      for (const response of [list, again]) {
        expect(response.headers['cache-control'], url).toBe(REVALIDATED);
        expect(varied(response.headers.vary), url).toEqual(
          expect.arrayContaining(['authorization', 'x-tachyon-authenticate']),
        );
      }
    }
  });

  it('holds for every signed-in endpoint of the catalogue, and for the anonymous ones that carry secrets', async () => {
    const entries: Endpoint[] = Object.values(endpoints);
    for (const endpoint of entries) {
      const url = `/api${endpointPath(endpoint, { id: 1 })}`;
      const response = await t.call({ method: endpoint.method, url });
      const where = `${endpoint.method} ${endpoint.path}`;
      if (endpoint.access.kind !== 'anonymous') {
        // Without credentials, an enrolment's code in the body is the credential: no body is a validation problem.
        expect(response.statusCode, where).toBe(endpoint.access.kind === 'session-or-enrollment-code' ? 400 : 401);
        expect(response.headers['cache-control'], where).toBe(endpoint.conditional ? REVALIDATED : PERSONAL);
      } else if (endpoint.noStore) {
        expect(response.headers['cache-control'], where).toBe(PERSONAL);
      }
    }
    // Public and the same for everyone: a cache may keep it.
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Version' })).headers['cache-control']).toBeUndefined();
  });
});
