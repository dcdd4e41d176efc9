import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../../test/service-process.ts';

/**
 * The built service at the default log level writes one line per request, asynchronously, and a
 * SIGTERM right after the last answer loses none of them.
 */
describe('request log of the built service (LOG_LEVEL=info)', () => {
  let dataDir: string;
  let service: ServiceProcess | null = null;

  beforeAll(() => {
    ensureServerBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-request-log-'));
  }, 120_000);

  afterAll(async () => {
    await stopService(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one line per request with method, route, status, duration, user and consumer, none lost on SIGTERM', async () => {
    service = await startService({
      DATA_DIR: dataDir,
      DEMO: 'on',
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: '1024',
      LOGIN_RATE_PER_MINUTE: '100000',
    });
    const { api } = service;
    const signIn = await fetch(`${api}/Consumer/Authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tachyon-consumer': 'sign-in' },
      body: JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
    });
    expect(signIn.status).toBe(200);
    const { Token } = (await signIn.json()) as { Token: string };

    // A burst of requests, each named by its consumer header: signed-in reads, unknown ids, unauthenticated calls.
    // SIGTERM goes as the first answer arrives: the rest are in flight, and their lines are written as the service
    // closes, the last ones just before it exits, so they are still in the log's buffer then.
    const COUNT = 600;
    const expected = new Map<string, { status: number; user: string | null }>();
    let signalled = false;
    const answers = await Promise.all(
      Array.from({ length: COUNT }, async (_, i) => {
        const consumer = `log-test-${i}`;
        const kind = i % 3;
        try {
          const response = await fetch(`${api}/Consumer/PushMessageUsers/${kind === 1 ? 999_999 : 1}`, {
            headers: { 'x-tachyon-consumer': consumer, ...(kind === 2 ? {} : { authorization: `Bearer ${Token}` }) },
          });
          if (!signalled) {
            signalled = true;
            service?.child.kill('SIGTERM');
          }
          await response.arrayBuffer();
          expected.set(consumer, { status: response.status, user: kind === 2 ? null : ADMIN[0] });
          return response.status;
        } catch {
          return 'refused'; // sent after the service stopped listening: no request, no line
        }
      }),
    );
    expect(await service.exited).toBe(0);
    expect(answers.filter((answer) => answer !== 'refused').length).toBeGreaterThan(1);

    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLines = lines.filter((line) => line.msg === 'request');
    // Fastify's own pair of lines per request is gone.
    expect(lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toEqual([]);
    const byConsumer = new Map<string, Record<string, unknown>[]>();
    for (const line of requestLines) {
      const key = String(line.consumer);
      byConsumer.set(key, [...(byConsumer.get(key) ?? []), line]);
    }
    for (const [consumer, want] of expected) {
      const found = byConsumer.get(consumer) ?? [];
      expect(found, consumer).toHaveLength(1);
      const line = found[0] ?? {};
      expect(line).toMatchObject({
        method: 'GET',
        route: '/api/Consumer/PushMessageUsers/:id',
        status: want.status,
        user: want.user,
      });
      expect(typeof line.ms).toBe('number');
      expect(typeof line.reqId).toBe('string');
    }
    expect(byConsumer.get('sign-in')?.[0]).toMatchObject({
      method: 'POST',
      route: '/api/Consumer/Authentication',
      status: 200,
    });
    expect(requestLines).toHaveLength(expected.size + 1);
    expect(lines.some((line) => line.msg === 'shutting down')).toBe(true);
  }, 120_000);
});
