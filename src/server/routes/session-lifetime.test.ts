import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AccountList,
  BACKGROUND_REQUEST_HEADER,
  MAX_STREAMS_PER_SESSION,
  SESSION_ABSOLUTE_EXPIRES_HEADER,
  SESSION_IDLE_EXPIRES_HEADER,
  SESSION_IDLE_TIMEOUT_HEADER,
} from '../../shared/contract/index.ts';
import { ADMIN, createTestApp, expectProblem, parseBody, useTestApp } from '../test/harness.ts';
import { streamEnds } from '../test/stream-ends.ts';
import { testDatabaseServer } from '../test/test-database.ts';

const QUEUE = '/api/Consumer/Authentication/AuthorizationRequests';
const SESSION = '/api/Consumer/Authentication/Session';
const background = { [BACKGROUND_REQUEST_HEADER]: '1' };

describe('session deadlines (extension): headers, person vs background traffic', () => {
  const { t } = useTestApp({ config: { sessionIdleMinutes: 30, sessionAbsoluteHours: 12 } });

  it('tells the idle and absolute deadlines and the idle length on every authenticated answer', async () => {
    const token = await t.login(...ADMIN);
    const response = await t.call({ method: 'GET', url: QUEUE, token });
    expect(response.statusCode).toBe(200);
    expect(response.headers[SESSION_IDLE_EXPIRES_HEADER.toLowerCase()]).toBe('2026-11-21T09:30:00.000Z');
    expect(response.headers[SESSION_ABSOLUTE_EXPIRES_HEADER.toLowerCase()]).toBe('2026-11-21T21:00:00.000Z');
    expect(response.headers[SESSION_IDLE_TIMEOUT_HEADER.toLowerCase()]).toBe('1800');
    const anonymous = await t.call({ method: 'GET', url: '/api/Consumer/Version' });
    expect(anonymous.headers[SESSION_IDLE_EXPIRES_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('background requests never extend the idle deadline: an unattended poller is signed out at it', async () => {
    const token = await t.login(...ADMIN);
    for (let minute = 0; minute < 29; minute += 1) {
      t.clock.advanceMinutes(1);
      const poll = await t.call({ method: 'GET', url: QUEUE, token, headers: background });
      expect(poll.statusCode).toBe(200);
      expect(poll.headers[SESSION_IDLE_EXPIRES_HEADER.toLowerCase()]).toBe('2026-11-21T09:30:00.000Z');
    }
    t.clock.advanceMinutes(1);
    expectProblem(await t.call({ method: 'GET', url: QUEUE, token, headers: background }), 401, 'unauthenticated');
  });

  it("the person's requests extend it, past the first idle deadline", async () => {
    const token = await t.login(...ADMIN);
    for (let minute = 0; minute < 45; minute += 5) {
      t.clock.advanceMinutes(5);
      const click = await t.call({ method: 'GET', url: QUEUE, token });
      expect(click.statusCode).toBe(200);
    }
    const session = await t.call({ method: 'GET', url: SESSION, token });
    expect(session.statusCode).toBe(200);
    expect(session.headers[SESSION_IDLE_EXPIRES_HEADER.toLowerCase()]).toBe('2026-11-21T10:15:00.000Z');
    expect(session.json<{ ExpiresUtc: string }>().ExpiresUtc).toBe('2026-11-21 10:15:00.000');
  });

  it('the absolute deadline is not extended by activity', async () => {
    const token = await t.login(...ADMIN);
    for (let minute = 0; minute < 12 * 60 - 20; minute += 20) {
      t.clock.advanceMinutes(20);
      expect((await t.call({ method: 'GET', url: SESSION, token })).statusCode).toBe(200);
    }
    t.clock.advanceMinutes(20);
    expectProblem(await t.call({ method: 'GET', url: SESSION, token }), 401, 'unauthenticated');
  });

  it('accepts sign-out as DELETE with Content-Type application/json and no body', async () => {
    const token = await t.login(...ADMIN);
    const response = await t.call({
      method: 'DELETE',
      url: SESSION,
      token,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode, response.body).toBe(204);
    expectProblem(await t.call({ method: 'GET', url: SESSION, token }), 401, 'unauthenticated');
  });
});

describe('the live stream ends with its session', () => {
  const { t } = useTestApp({ config: { sessionIdleMinutes: 30 } });
  let base: string;
  beforeEach(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const open = async (token: string) => {
    const response = await fetch(`${base}/api/Consumer/Events`, {
      headers: { authorization: `Bearer ${token}`, ...background },
    });
    expect(response.status).toBe(200);
    if (!response.body) throw new Error('no stream');
    return response.body;
  };

  it('ends within a few seconds of sign-out', async () => {
    const token = await t.login(...ADMIN);
    const body = await open(token);
    const since = performance.now();
    expect((await t.call({ method: 'DELETE', url: '/api/Consumer/Authentication/Session', token })).statusCode).toBe(
      204,
    );
    expect(await streamEnds(body, since)).toBeLessThan(5_000);
  });

  it('ends within a few seconds of the idle deadline passing', async () => {
    const token = await t.login(...ADMIN);
    const body = await open(token);
    t.clock.advanceMinutes(31);
    expect(await streamEnds(body, performance.now())).toBeLessThan(5_000);
  });

  it('ends within a few seconds of Read on Security being removed', async () => {
    await t.addPrincipal('DEMO\\reader', 'Reader#2026-long', ['Read']);
    const token = await t.login('DEMO\\reader', 'Reader#2026-long');
    const body = await open(token);
    const admin = await t.login(...ADMIN);
    const accounts = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
    const reader = accounts.find((account) => account.UserName === 'DEMO\\reader');
    const removed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${reader?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: [], Accounts: [] } },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await streamEnds(body, performance.now())).toBeLessThan(5_000);
  });

  it(`refuses more than ${MAX_STREAMS_PER_SESSION} open streams per session with a 429 problem`, async () => {
    const token = await t.login(...ADMIN);
    const bodies = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i += 1) bodies.push(await open(token));
    const refused = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('retry-after')).toBe('30');
    // Another session is not affected, and closing one stream frees its place.
    const other = await t.login(...ADMIN);
    await (await open(other)).cancel();
    await bodies[0]?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));
    bodies[0] = await open(token);
    for (const body of bodies) await body?.cancel();
  });
});

describe.runIf(testDatabaseServer() !== null)('live stream and sign-out in another process (PostgreSQL)', () => {
  it('ends within a few seconds when the session is revoked through another process', async () => {
    const first = await createTestApp();
    const second = await createTestApp({ databaseUrl: first.config.databaseUrl });
    try {
      await first.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(first.app.server.address() as AddressInfo).port}`;
      const token = await first.login(...ADMIN);
      const response = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.body) throw new Error('no stream');
      const since = performance.now();
      const signOut = await second.call({ method: 'DELETE', url: '/api/Consumer/Authentication/Session', token });
      expect(signOut.statusCode).toBe(204);
      expect(await streamEnds(response.body, since)).toBeLessThan(6_000);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
