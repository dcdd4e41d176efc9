import fs from 'node:fs';
import type http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../../test/service-process.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../test/test-certificates.ts';
import { h2Connect, h2Request, servedSerial, tryHandshake } from '../../test/tls-clients.ts';
import { STRICT_TRANSPORT_SECURITY } from '../guards/security-headers.ts';

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

  /** Mozilla's intermediate profile as a client sees it: what is taken, and what is refused. */
  const expectIntermediateProfile = async (port: number, ca: string) => {
    const tls12 = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const;
    const tls13 = { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' } as const;
    for (const cipher of [
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-RSA-CHACHA20-POLY1305',
    ]) {
      expect(await tryHandshake(port, ca, { ...tls12, ciphers: cipher }), cipher).toMatchObject({ cipher });
    }
    for (const cipher of ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']) {
      expect(await tryHandshake(port, ca, { ...tls13, ciphers: cipher }), cipher).toMatchObject({
        protocol: 'TLSv1.3',
        cipher,
      });
    }
    for (const [group, name] of [
      ['X25519', 'X25519'],
      ['P-256', 'prime256v1'],
      ['P-384', 'secp384r1'],
    ] as const) {
      expect(await tryHandshake(port, ca, { ...tls13, ecdhCurve: group }), group).toMatchObject({ group: name });
      expect(await tryHandshake(port, ca, { ...tls12, ecdhCurve: group }), group).toMatchObject({ group: name });
    }
    // Refused: CBC (Lucky13), static RSA (no forward secrecy), CCM, and the groups outside the profile.
    for (const cipher of ['ECDHE-RSA-AES128-SHA256', 'ECDHE-RSA-AES128-SHA', 'AES128-GCM-SHA256', 'AES256-SHA256']) {
      expect(await tryHandshake(port, ca, { ...tls12, ciphers: cipher }), cipher).toHaveProperty('error');
    }
    expect(await tryHandshake(port, ca, { ...tls13, ciphers: 'TLS_AES_128_CCM_SHA256' })).toHaveProperty('error');
    for (const group of ['X448', 'ffdhe8192', 'ffdhe2048', 'P-521']) {
      expect(await tryHandshake(port, ca, { ...tls13, ecdhCurve: group }), group).toHaveProperty('error');
    }
    // The client's order is honoured: one that prefers ChaCha20 gets it although the server lists AES first.
    expect(
      await tryHandshake(port, ca, {
        ...tls12,
        ciphers: 'ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256',
      }),
    ).toMatchObject({ cipher: 'ECDHE-RSA-CHACHA20-POLY1305' });
  };

  /** One plain-HTTP request to the port, as a person typing http:// would send it: the whole answer. */
  const plainHttp = (port: number) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/health/ready HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });

  it("holds to Mozilla's intermediate profile with an RSA certificate, also after SIGHUP; answers plain HTTP", async () => {
    const rsa = pki.issue('rsa', '0C03', 'rsa');
    service = await startService(env({ TLS_CERT_FILE: rsa.certFile, TLS_KEY_FILE: rsa.keyFile, LOG_LEVEL: 'info' }));
    const port = Number(new URL(service.api).port);
    const current = service;
    await eventually(() => current.output().includes('Server listening at'));
    expect(service.output()).toContain(`Server listening at https://127.0.0.1:${port}`);
    expect(service.output()).not.toMatch(/listening at http:/);
    await expectIntermediateProfile(port, pki.ca);

    const session = await h2Connect(`https://localhost:${port}`, pki.ca);
    sessions.push(session);
    const answer = await h2Request(session, '/api/health/ready');
    expect(answer.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=63072000; includeSubDomains');
    // HTTP/2 lets one connection open about 100 requests at once, not an unlimited number.
    expect(session.remoteSettings.maxConcurrentStreams).toBe(100);

    const first = await plainHttp(port);
    expect(first).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(first).toContain(`This port speaks HTTPS only. Use https://localhost:${port}/`);
    expect(first).not.toContain('"status"');
    await plainHttp(port);
    await eventually(() => current.output().includes('Plain HTTP from'));
    expect(service.output().match(/Plain HTTP from 127\.0\.0\.1/g)).toHaveLength(1);

    service.child.kill('SIGHUP');
    await eventually(() => current.output().includes('TLS certificate reloaded'));
    await expectIntermediateProfile(port, pki.ca);
    expect((await h2Request(session, '/api/health/ready')).status).toBe(200);
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
    // The log's JSON line of the warning can come before the boxed one on standard output: wait for the box itself.
    const boxed = /!{78}\nWARNING: INSECURE_HTTP is on and the service answers plain HTTP on 0\.0\.0\.0/;
    await eventually(() => boxed.test(current.output()));
    expect(service.output()).toMatch(boxed);
  }, 30_000);
});
