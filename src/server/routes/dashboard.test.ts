import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../test/harness.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head></html>';

describe('the dashboard outside /api (SPEC §3 "Base URL and routing")', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log("app");');
    t = await createTestApp({ webRoot });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('serves index.html at / and for any page path (history fallback)', async () => {
    for (const url of [
      '/',
      '/login?redirect=%2Fpush-users',
      '/authorization-requests/12',
      '/push-users',
      '/settings',
    ]) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toBe(INDEX);
      // A new build must reach people on their next visit.
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
    }
  });

  it('serves built assets, fingerprinted ones as immutable', async () => {
    const response = await t.call({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("app");');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('never answers an unknown /api route with the page', async () => {
    for (const url of ['/api/Nope', '/API/consumer/nope', '/api']) {
      const response = await t.call({ method: 'GET', url });
      expectProblem(response, 404, 'not-found');
      expect(response.body).not.toContain('<html');
    }
  });

  it('keeps page deep links on the dashboard now that the Consumer interface is also at the root', async () => {
    for (const url of ['/demo', '/two-factor', '/push-users/3', '/authorization-requests?view=all', '/accounts']) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX);
    }
    // The interface's own paths at the root never fall back to the page.
    for (const url of ['/Consumer/Nope', '/consumer', '/ConsumerAuthentication/Nope']) {
      const response = await t.call({ method: 'GET', url });
      expectProblem(response, 404, 'not-found');
      expect(response.body, url).not.toContain('<html');
    }
  });

  it('answers other methods outside /api with a problem, not the page', async () => {
    expectProblem(await t.call({ method: 'POST', url: '/push-users', payload: {} }), 404, 'not-found');
  });
});
