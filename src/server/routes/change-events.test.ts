import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { ChangeEvent } from '../../shared/contract/index.ts';
import { ADMIN, createTestApp, demoCreateRequest, OPERATOR, useTestApp } from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * Reads Server-Sent Events from a fetch body until `count` events arrived; those of the Activity page (new security
 * events kept) only when asked for.
 */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  count: number,
  keep: (event: ChangeEvent) => boolean = (event) => event.Type !== 'activity',
): Promise<ChangeEvent[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: ChangeEvent[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      const event = data ? ChangeEvent.parse(JSON.parse(data)) : null;
      if (event && keep(event)) events.push(event);
      end = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

describe('change stream (extension): GET /Consumer/Events', () => {
  const { t } = useTestApp();
  let base: string;
  beforeEach(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('streams committed decisions, status changes, new requests and resets to a signed-in reader', async () => {
    const admin = await t.login(...ADMIN);
    const response = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('api-version')).toBe('3.3');
    if (!response.body) throw new Error('no stream');
    const received = readEvents(response.body, 4);

    const created = await demoCreateRequest(t, admin);
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/AuthorizeDevice',
      token: admin,
      payload: { RequestId: created.Id, RequestGuid: created.RequestGuid, Authorized: false },
    });
    await t.call({ method: 'PUT', url: '/api/Consumer/PushMessageUsers', token: admin, payload: { Id: 2, Status: 2 } });
    await t.call({ method: 'POST', url: '/api/Demo/Reset', token: admin });

    expect(await received).toEqual([
      { Type: 'authorization-request', Id: created.Id, Status: 'Pending', ChangedBy: 'DEMO\\admin' },
      { Type: 'authorization-request', Id: created.Id, Status: 'Rejected', ChangedBy: 'DEMO\\admin' },
      { Type: 'push-user', Id: 2, Status: 2, ChangedBy: 'DEMO\\admin' },
      { Type: 'reset' },
    ]);
  });

  it('says when new security events are kept, naming nothing of them, so Activity pages read theirs again', async () => {
    const admin = await t.login(...ADMIN);
    const response = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${admin}` } });
    if (!response.body) throw new Error('no stream');
    const received = readEvents(response.body, 1, () => true);
    // Sign-ins' events: an announcement that names nothing of them (each page reads what it may).
    for (let i = 0; i < 3; i++) await t.login(...OPERATOR);
    expect(await received).toEqual([{ Type: 'activity' }]);
  });

  it('refuses anonymous callers (401) and callers without Read on Security (403)', async () => {
    const anonymous = await fetch(`${base}/api/Consumer/Events`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const operator = await t.login(...OPERATOR);
    const forbidden = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${operator}` } });
    expect(forbidden.status).toBe(403);
  });

  it('lets the service shut down while a stream is open', async () => {
    const admin = await t.login(...ADMIN);
    const response = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
    const started = performance.now();
    await t.app.close();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

/** Two app instances with their own pools on one PostgreSQL database are, to the database, two processes. */
describe.runIf(testDatabaseServer() !== null)('change stream across processes sharing PostgreSQL', () => {
  it('streams to a reader on one process the changes made through another', async () => {
    const first = await createTestApp();
    const second = await createTestApp({ databaseUrl: first.config.databaseUrl });
    try {
      await first.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(first.app.server.address() as AddressInfo).port}`;
      const reader = await first.login(...ADMIN);
      const response = await fetch(`${base}/api/Consumer/Events`, { headers: { authorization: `Bearer ${reader}` } });
      if (!response.body) throw new Error('no stream');
      const received = readEvents(response.body, 2);

      const admin = await second.login(...ADMIN);
      const created = await demoCreateRequest(second, admin);
      const decision = await second.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/AuthorizeDevice',
        token: admin,
        payload: { RequestId: created.Id, RequestGuid: created.RequestGuid, Authorized: true },
      });
      expect(decision.statusCode).toBe(200);

      expect(await received).toEqual([
        { Type: 'authorization-request', Id: created.Id, Status: 'Pending', ChangedBy: 'DEMO\\admin' },
        { Type: 'authorization-request', Id: created.Id, Status: 'Authorized', ChangedBy: 'DEMO\\admin' },
      ]);
    } finally {
      await second.close();
      await first.close();
    }
    // Two apps migrating and seeding one PostgreSQL database need more than the default limit on a busy machine.
  }, 20_000);
});
