import { describe, expect, it } from 'vitest';
import { SUPPORTED_VERSIONS, VersionInfo } from '../../shared/contract/index.ts';
import { ADMIN, createTestApp, expectProblem, OPERATOR, parseBody, useTestApp } from '../test/harness.ts';

/** Every seed endpoint, called with a valid-looking request (its answer does not matter for version rules). */
const SEED_CALLS = {
  2: { method: 'POST', url: '/api/ConsumerAuthentication/Token', payload: { InstructionId: 1, Token: '123456' } },
  3: { method: 'POST', url: '/api/Consumer/Authentication/Instruction/Token', payload: { Id: 1, Token: '123456' } },
  4: { method: 'POST', url: '/api/Consumer/Authentication/ScheduledInstruction/Token', payload: { Id: 1, Token: '1' } },
  5: {
    method: 'POST',
    url: '/api/Consumer/Authentication/AuthorizeDevice',
    payload: { RequestId: 1, RequestGuid: '00000000-0000-0000-0000-000000000000', Authorized: true },
  },
  6: { method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests?getall=true' },
  7: { method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests/1' },
  8: { method: 'GET', url: '/api/Consumer/PushMessageUsers' },
  9: { method: 'GET', url: '/api/Consumer/PushMessageUsers/1' },
  10: { method: 'PUT', url: '/api/Consumer/PushMessageUsers', payload: { Id: 1, Status: 1 } },
} as const;

describe('API versions (seed §9, SPEC §3 "Versions")', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN }, per: 'file' });

  it('GET /Consumer/Version answers the default and supported versions, without signing in', async () => {
    const response = await t.call({ method: 'GET', url: '/api/Consumer/Version' });
    expect(response.statusCode).toBe(200);
    expect(parseBody(response, VersionInfo)).toEqual({
      DefaultVersion: '3.3',
      SupportedVersions: ['3.0', '3.1', '3.2', '3.3', '4.0'],
      Demo: true,
    });
  });

  it('answers Api-Version: the default without the header, the requested one with it', async () => {
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Version' })).headers['api-version']).toBe('3.3');
    for (const version of SUPPORTED_VERSIONS) {
      const response = await t.call({
        method: 'GET',
        url: '/api/Consumer/PushMessageUsers',
        token: tokens.admin,
        version,
      });
      expect(response.headers['api-version']).toBe(version);
    }
  });

  it('carries Api-Version on every response, errors included', async () => {
    const responses = [
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers' }),
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers/987654', token: tokens.admin }),
      await t.call({ method: 'GET', url: '/api/No/Such/Thing', version: '3.1' }),
      await t.call({ method: 'POST', url: '/api/Consumer/Authentication', payload: {} }),
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      await t.call({
        method: 'PUT',
        url: '/api/Consumer/PushMessageUsers',
        token: tokens.admin,
        version: '4.0',
        payload: {},
      }),
      await t.call({ method: 'DELETE', url: '/api/Consumer/Authentication/Session', token: await t.login(...ADMIN) }),
    ];
    const etag = responses[0]?.headers.etag;
    responses.push(
      await t.call({
        method: 'GET',
        url: '/api/Consumer/PushMessageUsers',
        token: tokens.admin,
        version: '3.2',
        headers: { 'if-none-match': String(etag) },
      }),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([200, 401, 404, 404, 400, 400, 404, 204, 304]);
    expect(responses.map((response) => response.headers['api-version'])).toEqual([
      '3.3',
      '3.3',
      '3.3',
      '3.1',
      '3.3',
      '3.3',
      '4.0',
      '3.3',
      '3.2',
    ]);
  });

  it('answers an unsupported or malformed Api-Version with 400 listing the supported versions', async () => {
    for (const version of ['2.0', '5.0', '3', '3.3.0', 'latest', 'v3.3']) {
      const response = await t.call({ method: 'GET', url: '/api/Consumer/Version', version });
      const problem = expectProblem(response, 400, 'unsupported-version');
      expect(problem.supportedVersions).toEqual([...SUPPORTED_VERSIONS]);
      expect(problem.detail).toContain('3.0, 3.1, 3.2, 3.3, 4.0');
      expect(response.headers['api-version']).toBe('3.3');
    }
    // Before authentication: a bad version is 400 even without a session.
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', version: '9.9' }),
      400,
      'unsupported-version',
    );
  });

  it('serves a configured default version', async () => {
    const other = await createTestApp({ defaultApiVersion: '4.0' });
    try {
      const response = await other.call({ method: 'GET', url: '/api/Consumer/Version' });
      expect(response.headers['api-version']).toBe('4.0');
      expect(parseBody(response, VersionInfo).DefaultVersion).toBe('4.0');
      const token = await other.login(...ADMIN);
      expectProblem(
        await other.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token }),
        404,
        'unavailable-in-version',
      );
    } finally {
      await other.close();
    }
  });

  describe('endpoints missing in a version answer 404 unavailable-in-version', () => {
    for (const n of [5, 6, 7, 8, 9, 10] as const) {
      it(`#${n} at 4.0, naming 3.0-3.3; it works at 3.0-3.3`, async () => {
        const call = SEED_CALLS[n];
        const problem = expectProblem(
          await t.call({ ...call, token: tokens.admin, version: '4.0' }),
          404,
          'unavailable-in-version',
        );
        expect(problem.availableIn).toEqual(['3.0', '3.1', '3.2', '3.3']);
        expect(problem.detail).toContain('API 4.0');
        expect(problem.detail).toContain('3.0, 3.1, 3.2, 3.3');
        // Also for a caller who is not signed in: the endpoint does not exist there.
        expectProblem(await t.call({ ...call, version: '4.0' }), 404, 'unavailable-in-version');
        for (const version of ['3.0', '3.1', '3.2', '3.3']) {
          const response = await t.call({ ...call, token: tokens.admin, version });
          expect(response.json<{ type?: string }>().type ?? '').not.toMatch(/unavailable-in-version/);
        }
      });
    }

    for (const n of [3, 4] as const) {
      it(`#${n} at 3.0, naming 3.1-4.0; it exists from 3.1`, async () => {
        const operator = await t.login(...OPERATOR);
        const call = SEED_CALLS[n];
        const problem = expectProblem(
          await t.call({ ...call, token: operator, version: '3.0' }),
          404,
          'unavailable-in-version',
        );
        expect(problem.availableIn).toEqual(['3.1', '3.2', '3.3', '4.0']);
        expect(problem.detail).toContain('API 3.0');
        expect(problem.detail).toContain('3.1, 3.2, 3.3, 4.0');
        for (const version of ['3.1', '3.2', '3.3', '4.0']) {
          // Instruction 1 does not exist: a plain 404, not a version problem.
          expectProblem(await t.call({ ...call, token: operator, version }), 404, 'not-found');
        }
      });
    }
  });

  it('keeps #1, #2 and the extensions in every version', async () => {
    for (const version of SUPPORTED_VERSIONS) {
      const login = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        version,
        payload: { UserName: ADMIN[0], Password: ADMIN[1] },
      });
      expect(login.statusCode).toBe(200);
      expect(login.headers.deprecation).toBeUndefined();
      expect(
        (await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: tokens.admin, version }))
          .statusCode,
      ).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.admin, version })).statusCode).toBe(
        200,
      );
      expectProblem(await t.call({ ...SEED_CALLS[2], token: tokens.admin, version }), 404, 'not-found');
    }
  });

  it('marks #2 deprecated from 3.1 on (Deprecation and successor Link), not at 3.0', async () => {
    const at30 = await t.call({ ...SEED_CALLS[2], token: tokens.admin, version: '3.0' });
    expect(at30.headers.deprecation).toBeUndefined();
    expect(at30.headers.link).toBeUndefined();
    for (const version of ['3.1', '3.2', '3.3', '4.0']) {
      for (const url of ['/api/ConsumerAuthentication/Token', '/api/Consumer/Authentication/Token']) {
        const response = await t.call({ ...SEED_CALLS[2], url, token: tokens.admin, version });
        expect(response.headers.deprecation).toBe('@1577836800'); // 2020-01-01, the catalogue's deprecatedAt
        expect(response.headers.link).toBe('</api/Consumer/Authentication/Instruction/Token>; rel="successor-version"');
      }
    }
    // The default version is 3.3, so #2 is deprecated without the header too.
    expect((await t.call({ ...SEED_CALLS[2], token: tokens.admin })).headers.deprecation).toMatch(/^@\d+$/);
    // Only #2.
    const other = await t.call({ ...SEED_CALLS[3], token: tokens.admin, version: '3.3' });
    expect(other.headers.deprecation).toBeUndefined();
  });
});
