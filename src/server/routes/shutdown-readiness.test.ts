import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Problem, problemType } from '../../shared/contract/index.ts';
import { startDraining } from '../http/listener/draining.ts';
import { ADMIN, createTestApp, expectProblem } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function answerOf(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

const get = (url: string) => {
  const request = http.request(url, { agent: false });
  request.end();
  return answerOf(request);
};

/**
 * Going away cleanly: on SIGTERM readiness fails at once, so a load balancer stops sending, while requests in flight
 * (and, during SHUTDOWN_DRAIN_SECONDS, new ones) are still served; then the process exits 0.
 */
describe('SIGTERM', () => {
  let dataDir: string;
  let service: ServiceProcess | null = null;

  beforeAll(() => {
    ensureServerBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-drain-'));
  }, 120_000);
  afterAll(async () => {
    await stopService(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes readiness 503 at once, finishes the request in flight, serves during the drain, then exits 0', async () => {
    service = await startService({ DATA_DIR: dataDir, PASSWORD_HASH_COST: '1024', SHUTDOWN_DRAIN_SECONDS: '2' });
    const { api } = service;
    expect((await get(`${api}/health/ready`)).status).toBe(200);

    // A sign-in whose body is still arriving when the signal comes: in flight, and slow.
    const body = JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] });
    const slow = http.request(`${api}/Consumer/Authentication`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const slowAnswer = answerOf(slow);
    slow.write(body.slice(0, 10));
    slow.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = performance.now();
    service.child.kill('SIGTERM');
    // Asked right away, on a new connection: the signal is handled before the next request is read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ready = await get(`${api}/health/ready`);
    expect(ready.status, ready.body).toBe(503);
    expect(ready.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(ready.headers['retry-after']).toBe('5');
    expect(Problem.parse(JSON.parse(ready.body))).toMatchObject({
      type: problemType('service-unavailable'),
      detail: 'The service is shutting down.',
    });
    // Still up and serving: liveness, and any other request, during the drain.
    expect((await get(`${api}/health/live`)).status).toBe(200);
    expect((await get(`${api}/Consumer/Version`)).status).toBe(200);

    slow.end(body.slice(10));
    const signedIn = await slowAnswer;
    expect(signedIn.status, signedIn.body).toBe(200);
    expect(JSON.parse(signedIn.body)).toHaveProperty('Token');

    expect(await service.exited, service.output()).toBe(0);
    // It waited for the drain before closing.
    expect(performance.now() - signalledAt).toBeGreaterThanOrEqual(2_000);
  }, 60_000);
});

describe('readiness while the service goes away', () => {
  it('is 503 once draining starts, and from the moment the close begins however it began', async () => {
    const t = await createTestApp();
    try {
      expect((await t.call({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      startDraining(t.app);
      const draining = await t.call({ method: 'GET', url: '/api/health/ready' });
      expect(expectProblem(draining, 503, 'service-unavailable').detail).toBe('The service is shutting down.');
      expect((await t.call({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }

    // What readiness answers while the close waits for requests in flight (here: when the close has begun).
    let duringClose: number | null = null;
    const closing = await createTestApp(
      {},
      {
        extend: (app) => {
          app.addHook('preClose', async () => {
            const { port } = app.server.address() as AddressInfo;
            duringClose = (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status;
          });
        },
      },
    );
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    await closing.close();
    expect(duringClose).toBe(503);
  });
});
