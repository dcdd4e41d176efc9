import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAssets } from '../../../../scripts/compress-assets.mjs';
import { createTestApp, expectProblem, type TestApp } from '../../test/harness.ts';

const BIG_ASSET = `export const words = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `word${i}`))};`;
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head></html>';
const DEVICE =
  '<!doctype html><html><head><link rel="manifest" href="/device.webmanifest" /><script type="module" src="/assets/device-abc123.js"></script></head></html>';

describe('the dashboard outside /api (SPEC §3 "Base URL and routing")', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webRoot, 'device.html'), DEVICE);
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log("app");');
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-def456.js'), BIG_ASSET);
    compressAssets(webRoot);
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
      '/people',
      // A person's page: the user name's backslash percent-encoded, which the static file handler alone refuses.
      '/people/DEMO%5Cjane',
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

  it("sends the build's brotli or gzip copy to browsers that accept it, the file itself to others", async () => {
    const brotli = await t.call({
      method: 'GET',
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotli.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG_ASSET);
    const gzip = await t.call({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(BIG_ASSET);
    const plain = await t.call({
      method: 'GET',
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_ASSET);
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

  it('serves the device app at /device: its own page, whose HTML links the manifest before any script', async () => {
    for (const url of ['/device', '/device?from=qr']) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toBe(DEVICE);
      expect(response.body.indexOf('rel="manifest"')).toBeLessThan(response.body.indexOf('<script'));
      // A service worker and a manifest are this origin's files: the CSP's default-src covers both.
      expect(response.headers['content-security-policy'], url).toContain("default-src 'self'");
    }
    // Other paths stay the dashboard's.
    expect((await t.call({ method: 'GET', url: '/devices' })).body).toBe(INDEX);
  });

  it('serves /robots.txt as text that keeps every crawler out, not the page', async () => {
    const response = await t.call({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('asks search engines not to index any dashboard answer: pages, assets, the fallback, the device app', async () => {
    for (const url of ['/', '/login', '/push-users/3', '/assets/app-abc123.js', '/device', '/robots.txt', '/nope']) {
      const response = await t.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['x-robots-tag'], url).toBe('noindex, nofollow');
    }
    // A missing asset is answered with a problem; it carries the header too.
    const missing = await t.call({ method: 'GET', url: '/assets/missing.js' });
    expect(missing.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('answers other methods outside /api with a problem, not the page', async () => {
    expectProblem(await t.call({ method: 'POST', url: '/push-users', payload: {} }), 404, 'not-found');
  });
});
