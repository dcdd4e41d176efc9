import fs from 'node:fs';
import type http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../../test/service-process.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../test/test-certificates.ts';
import { h2Connect, h2Request, servedSerial } from '../../test/tls-clients.ts';

/** Waits until `check` holds, asking every 50 ms, for at most `ms`. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The built service as a real process with its own certificate: the signals (SIGHUP, SIGTERM) and the start-up
 * refusals are the process's own, so they are tested on one.
 */
describe('the service process with its own certificate', () => {
  let pki: TestPki;
  let first: IssuedCertificate;
  let second: IssuedCertificate;
  let dataDir: string;
  let service: ServiceProcess | null = null;
  const sessions: http2.ClientHttp2Session[] = [];

  beforeAll(() => {
    ensureServerBuilt();
    pki = createTestPki();
    first = pki.issue('first', '0A01');
    second = pki.issue('second', '0B02');
  }, 120_000);
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.destroy();
    await stopService(service);
    service = null;
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(() => pki.remove());

  const env = (extra: Record<string, string>) => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-tls-'));
    return { DATA_DIR: dataDir, PASSWORD_HASH_COST: '1024', ...extra };
  };

  it('reloads the certificate on SIGHUP for new connections, keeps open ones, and keeps it when the files are bad', async () => {
    const certFile = path.join(pki.folder, 'process.pem');
    const keyFile = path.join(pki.folder, 'process.key');
    fs.copyFileSync(first.certFile, certFile);
    fs.copyFileSync(first.keyFile, keyFile);
    service = await startService(env({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }));
    const url = new URL(service.api);
    expect(url.protocol).toBe('https:');
    const port = Number(url.port);
    const origin = `https://localhost:${port}`;

    const open = await h2Connect(origin, pki.ca);
    sessions.push(open);
    expect((await h2Request(open, '/api/health/ready')).status).toBe(200);
    expect(await servedSerial(port, pki.ca)).toBe(first.serialNumber);

    fs.copyFileSync(second.certFile, certFile);
    fs.copyFileSync(second.keyFile, keyFile);
    service.child.kill('SIGHUP');
    await eventually(async () => (await servedSerial(port, pki.ca)) === second.serialNumber);
    const answer = await h2Request(open, '/api/health/ready');
    expect(answer.status).toBe(200);
    expect(service.child.exitCode).toBeNull();

    // Half-written files (a key that is not the certificate's): the new certificate stays, and the log says why.
    fs.copyFileSync(first.certFile, certFile);
    service.child.kill('SIGHUP');
    const current = service;
    await eventually(() => current.output().includes('TLS certificate not reloaded'));
    expect(service.output()).toMatch(/do not make a usable pair/);
    expect(await servedSerial(port, pki.ca)).toBe(second.serialNumber);
    expect((await h2Request(open, '/api/health/ready')).status).toBe(200);

    // And it still stops promptly with an HTTP/2 session open.
    const stopped = Date.now();
    service.child.kill('SIGTERM');
    expect(await service.exited, service.output()).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(5_000);
  }, 60_000);

  it('does not start with a certificate file it cannot read, and says which', async () => {
    await expect(
      startService(env({ TLS_CERT_FILE: path.join(pki.folder, 'missing.pem'), TLS_KEY_FILE: first.keyFile })),
    ).rejects.toThrow(/exited \(1\)[\s\S]*TLS_CERT_FILE .*missing\.pem cannot be read/);
  }, 30_000);

  it('does not start on plain HTTP beyond loopback, naming the ways to', async () => {
    await expect(startService(env({ HOST: '0.0.0.0' }))).rejects.toThrow(
      /exited \(1\)[\s\S]*TLS_CERT_FILE and TLS_KEY_FILE[\s\S]*TRUST_PROXY[\s\S]*INSECURE_HTTP=on/,
    );
  }, 30_000);

  it('starts on plain HTTP beyond loopback with INSECURE_HTTP=on, warning loudly', async () => {
    service = await startService(env({ HOST: '0.0.0.0', INSECURE_HTTP: 'on' }));
    const current = service;
    await eventually(() => current.output().includes('WARNING: INSECURE_HTTP is on'));
    expect(service.output()).toMatch(
      /!{78}\nWARNING: INSECURE_HTTP is on and the service answers plain HTTP on 0\.0\.0\.0/,
    );
  }, 30_000);
});
