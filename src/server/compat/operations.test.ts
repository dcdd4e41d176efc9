import net from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { ADMIN, createTestApp, expectProblem, type TestApp } from '../test/harness.ts';

describe('health checks (SPEC §3 "Running it")', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('live and ready answer 200 without sign-in, and are not cached', async () => {
    t = await createTestApp();
    for (const [url, status] of [
      ['/api/health/live', 'live'],
      ['/api/health/ready', 'ready'],
    ] as const) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.json()).toEqual({ Status: status });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('ready answers 503 service-unavailable when the database does not answer; live still 200', async () => {
    t = await createTestApp();
    await t.database.close();
    const response = await t.call({ method: 'GET', url: '/api/health/ready' });
    expectProblem(response, 503, 'service-unavailable');
    expect(response.headers['retry-after']).toBe('5');
    expect((await t.call({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    // close() closes the database again: give it a fresh handle to close.
    Object.assign(t.database, openDatabase({ sqliteFile: ':memory:' }));
  });
});

describe('Prometheus metrics (SPEC §3 "Running it")', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const METRICS_TOKEN = 'scraper-7f3a9c1e5b2d4086';
  const scrape = (authorization = `Bearer ${METRICS_TOKEN}`) =>
    t.call({ method: 'GET', url: '/api/metrics', headers: { authorization } });

  it('are off the public API by default', async () => {
    t = await createTestApp();
    expectProblem(await t.call({ method: 'GET', url: '/api/metrics' }), 404, 'not-found');
  });

  it('METRICS=on: requests by route and status, pending requests, sign-ins by outcome', async () => {
    t = await createTestApp({ metrics: true, metricsToken: METRICS_TOKEN });
    await t.login(...ADMIN);
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: 'x' },
    });
    await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers/1', token: await t.login(...ADMIN) });
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toMatch(
      /tachyon_http_requests_total\{method="GET",route="\/api\/Consumer\/PushMessageUsers\/:id",status="200"\} 1/,
    );
    expect(text).toMatch(/tachyon_http_request_duration_seconds_bucket\{le="[^"]+",method="GET"/);
    expect(text).toMatch(/tachyon_sign_ins_total\{outcome="success"\} 2/);
    expect(text).toMatch(/tachyon_sign_ins_total\{outcome="failure"\} 1/);
    expect(text).toMatch(/tachyon_pending_authorization_requests [1-9]\d*/);
    expect(text).toMatch(/tachyon_database_errors_total 0/);
  });

  it('count database errors', async () => {
    t = await createTestApp({ metrics: true, metricsToken: METRICS_TOKEN });
    const token = await t.login(...ADMIN);
    await t.database.db.schema.dropTable('history').execute();
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/History?entity=PushMessageUser&id=1', token }),
      500,
      'internal',
    );
    expect((await scrape()).body).toMatch(/tachyon_database_errors_total 1/);
  });

  it('METRICS=on: the public port serves them only for Authorization: Bearer <METRICS_TOKEN>', async () => {
    t = await createTestApp({ metrics: true, metricsToken: METRICS_TOKEN });
    // Sign-in outcomes as they happen, and versions, are not for whoever can reach the port.
    for (const authorization of [
      '',
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${Buffer.from(`metrics:${METRICS_TOKEN}`).toString('base64')}`,
      `Bearer ${await t.login(...ADMIN)}`,
    ]) {
      const refused = await scrape(authorization);
      expectProblem(refused, 401, 'unauthenticated');
      expect(refused.body, authorization).not.toContain('tachyon_');
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
    }
    expect((await scrape(`bearer   ${METRICS_TOKEN}`)).statusCode).toBe(200);
  });

  it('METRICS=on without a token (a config made by hand) serves them to nobody', async () => {
    t = await createTestApp({ metrics: true, metricsToken: null });
    expectProblem(await scrape(), 401, 'unauthenticated');
  });

  it('METRICS_PORT serves them on a port of their own, and not on the public one', async () => {
    const port = await freePort();
    t = await createTestApp({ metricsPort: port, host: '127.0.0.1' });
    expectProblem(await t.call({ method: 'GET', url: '/api/metrics' }), 404, 'not-found');
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('tachyon_http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('X-Tachyon-Consumer (SPEC §3)', () => {
  it('is logged with each request as a structured field, and never required', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    });
    const config = { ...loadConfig({}), webRoot: null, demo: false, logLevel: 'info' };
    const app = await buildApp(
      { config, database: openDatabase({ sqliteFile: ':memory:' }) },
      { level: 'info', stream },
    );
    try {
      const named = await app.inject({
        method: 'GET',
        url: '/Consumer/Version',
        headers: { 'x-tachyon-consumer': 'Explorer' },
      });
      expect(named.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/Consumer/Version' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.consumer).toBe('Explorer');
    expect(requests[1]?.consumer).toBeNull();
  });
});
