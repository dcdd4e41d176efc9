import { describe, expect, it, vi } from 'vitest';
import { type ApiVersion, endpoints } from '../../../shared/contract/index.ts';
import { json, problem, scriptedFetch } from '../../test/render.tsx';
import { submitToken } from '../queries/mutations.ts';
import { ApiError } from './api-error.ts';
import { createApiClient } from './client.ts';

const request = {
  Id: 7,
  UserName: 'ACME\\ann',
  UserEmail: 'ann@acme.example',
  RequestGuid: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  DeviceType: 'iOS',
  CreatedTimestampUtc: '2026-01-02 03:04:05.678',
  ModifiedTimestampUtc: '2026-01-02 03:04:05.678',
  Manufacturer: 'Apple',
  Model: 'iPhone 15',
  OsVersion: '17.6',
};

function setup(
  answers: Parameters<typeof scriptedFetch>,
  options: { version?: ApiVersion; token?: string | null } = {},
) {
  const scripted = scriptedFetch(...answers);
  const onUnauthorized = vi.fn();
  const client = createApiClient({
    baseUrl: () => 'https://tachyon.example/api/',
    apiVersion: () => options.version ?? '3.3',
    token: () => (options.token === undefined ? 'secret-token' : options.token),
    consumerName: () => 'Test Console',
    fetch: scripted.fetch,
    onUnauthorized,
  });
  return { client, calls: scripted.calls, onUnauthorized };
}

function header(init: RequestInit, name: string): string | null {
  return new Headers(init.headers).get(name);
}

describe('API client', () => {
  it('sends the version, consumer and bearer headers to base URL + catalogue path', async () => {
    const { client, calls } = setup([json([request])]);
    const list = await client.call(endpoints.listAuthorizationRequests, { query: { getall: 'true' } });
    expect(list).toEqual([request]);
    const [call] = calls;
    expect(call?.url).toBe('https://tachyon.example/api/Consumer/Authentication/AuthorizationRequests?getall=true');
    expect(call?.init.method).toBe('GET');
    expect(header(call?.init ?? {}, 'Api-Version')).toBe('3.3');
    expect(header(call?.init ?? {}, 'X-Tachyon-Consumer')).toBe('Test Console');
    expect(header(call?.init ?? {}, 'Authorization')).toBe('Bearer secret-token');
    expect(header(call?.init ?? {}, 'X-Tachyon-Authenticate')).toBe('secret-token');
  });

  it('does not send the token to the anonymous login endpoint, and sends the body as JSON', async () => {
    const { client, calls } = setup([
      json({
        Token: 't',
        TokenType: 'Bearer',
        ExpiresUtc: '2026-01-01 00:00:00.000',
        UserName: 'DEMO\\admin',
        Permissions: [{ Entity: 'Security', Permissions: ['Read', 'Write'] }],
      }),
    ]);
    const result = await client.call(endpoints.login, { body: { UserName: ' DEMO\\admin ', Password: 'pw' } });
    expect(result.UserName).toBe('DEMO\\admin');
    const init = calls[0]?.init ?? {};
    expect(header(init, 'Authorization')).toBeNull();
    expect(header(init, 'X-Tachyon-Authenticate')).toBeNull();
    expect(header(init, 'Content-Type')).toBe('application/json');
    // The contract's schema trims the user name before it leaves.
    expect(JSON.parse(String(init.body))).toEqual({ UserName: 'DEMO\\admin', Password: 'pw' });
  });

  it('turns a problem answer into an ApiError of the right kind', async () => {
    const { client } = setup([problem('already-decided', 409, 'Request 7 was already authorized by DEMO\\helpdesk.')]);
    const error = await client
      .call(endpoints.authorizeDevice, { body: { RequestId: 7, RequestGuid: request.RequestGuid, Authorized: true } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'already-decided', status: 409 });
    expect((error as ApiError).message).toContain('DEMO\\helpdesk');
  });

  it('reads Retry-After on 429', async () => {
    const { client } = setup([problem('too-many-requests', 429, 'Slow down', { 'Retry-After': '42' })]);
    const error = await client
      .call(endpoints.login, { body: { UserName: 'x', Password: 'y' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'too-many-requests', retryAfterSeconds: 42 });
  });

  it('maps a non-problem error page by status', async () => {
    const { client } = setup([
      new Response('<html>oops</html>', { status: 503, headers: { 'Content-Type': 'text/html' } }),
    ]);
    await expect(client.call(endpoints.listPushMessageUsers)).rejects.toMatchObject({ kind: 'internal', status: 503 });
  });

  it('turns a network failure into an ApiError of kind network', async () => {
    const { client } = setup([new TypeError('Failed to fetch')]);
    await expect(client.call(endpoints.listPushMessageUsers)).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('rejects an answer that does not match the contract', async () => {
    const { client } = setup([json([{ ...request, Id: 'seven' }])]);
    await expect(
      client.call(endpoints.listAuthorizationRequests, { query: { getall: 'false' } }),
    ).rejects.toMatchObject({ kind: 'invalid-response' });
  });

  it('never calls an endpoint the selected version lacks', async () => {
    const { client, calls } = setup([], { version: '4.0' });
    await expect(client.call(endpoints.listPushMessageUsers)).rejects.toMatchObject({
      kind: 'unavailable-in-version',
      detail: expect.stringContaining('removed in API 4.0'),
    });
    expect(calls).toHaveLength(0);
  });

  it('reports a 401 on a session call as a lost session, but not a failed login', async () => {
    const lost = setup([problem('unauthenticated', 401, 'Token expired')]);
    await expect(lost.client.call(endpoints.listPushMessageUsers)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(lost.onUnauthorized).toHaveBeenCalledTimes(1);

    const wrong = setup([problem('invalid-credentials', 401, 'Wrong user name or password')]);
    await expect(wrong.client.call(endpoints.login, { body: { UserName: 'a', Password: 'b' } })).rejects.toMatchObject({
      kind: 'invalid-credentials',
    });
    expect(wrong.onUnauthorized).not.toHaveBeenCalled();
  });

  it('replays the ETag and reuses the cached list on 304', async () => {
    const { client, calls } = setup([
      json([request], { headers: { ETag: '"v1"' } }),
      new Response(null, { status: 304, headers: { ETag: '"v1"' } }),
    ]);
    await client.call(endpoints.listAuthorizationRequests, { query: { getall: 'false' } });
    const second = await client.call(endpoints.listAuthorizationRequests, { query: { getall: 'false' } });
    expect(second).toEqual([request]);
    expect(header(calls[1]?.init ?? {}, 'If-None-Match')).toBe('"v1"');
  });

  it('validates a request body with the contract before sending it', async () => {
    const { client, calls } = setup([]);
    await expect(
      client.call(endpoints.updatePushMessageUser, { body: { Id: 3, Status: 9 as 1 } }),
    ).rejects.toMatchObject({ kind: 'validation' });
    expect(calls).toHaveLength(0);
  });

  it('fills path parameters from the catalogue', async () => {
    const { client, calls } = setup([json(request)]);
    await client.call(endpoints.getAuthorizationRequest, { params: { id: 7 } });
    expect(calls[0]?.url).toBe('https://tachyon.example/api/Consumer/Authentication/AuthorizationRequests/7');
  });
});

describe('token submission', () => {
  const accepted = { Id: 12, Authenticated: true };

  it('uses #3 with Id from 3.1 on', async () => {
    const { client, calls } = setup([json(accepted)], { version: '3.3' });
    await submitToken({ kind: 'instruction', id: 12, token: '123456' }, client);
    expect(calls[0]?.url).toMatch(/\/Consumer\/Authentication\/Instruction\/Token$/);
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ Id: 12, Token: '123456' });
  });

  it('uses the obsolete #2 with InstructionId before 3.1', async () => {
    const { client, calls } = setup([json(accepted)], { version: '3.0' });
    await submitToken({ kind: 'instruction', id: 12, token: '123456' }, client);
    expect(calls[0]?.url).toMatch(/\/ConsumerAuthentication\/Token$/);
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ InstructionId: 12, Token: '123456' });
  });

  it('uses #4 for scheduled instructions', async () => {
    const { client, calls } = setup([json(accepted)], { version: '4.0' });
    await submitToken({ kind: 'scheduled', id: 12, token: '123456' }, client);
    expect(calls[0]?.url).toMatch(/\/Consumer\/Authentication\/ScheduledInstruction\/Token$/);
  });

  it('gives each token problem its own kind', async () => {
    for (const [kind, status] of [
      ['invalid-token', 422],
      ['token-expired', 422],
      ['instruction-locked', 423],
      ['already-authenticated', 409],
      ['not-creator', 403],
      ['not-found', 404],
    ] as const) {
      const { client } = setup([problem(kind, status, kind)]);
      await expect(submitToken({ kind: 'instruction', id: 1, token: '000000' }, client)).rejects.toMatchObject({
        kind,
      });
    }
  });
});
