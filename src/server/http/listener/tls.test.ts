import fs from 'node:fs';
import type http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChangeEvent, PROBLEM_CONTENT_TYPE, Problem, problemType } from '../../../shared/contract/index.ts';
import type { Config } from '../../config.ts';
import { ADMIN, createTestApp, demoCreateRequest, type TestApp } from '../../test/harness.ts';
import { logCapture } from '../../test/log-capture.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../test/test-certificates.ts';
import { h2Connect, h2Request, handshake, https1Request, servedSerial, tryHandshake } from '../../test/tls-clients.ts';
import { STRICT_TRANSPORT_SECURITY } from '../guards/security-headers.ts';
import { loadTlsMaterial, reloadTlsOnSignal, TlsLoadError } from './tls.ts';

let pki: TestPki;
let first: IssuedCertificate;
let second: IssuedCertificate;
beforeAll(() => {
  pki = createTestPki();
  first = pki.issue('first', '1001');
  second = pki.issue('second', '2002');
});
afterAll(() => pki.remove());

describe("HTTPS with the service's own certificate", () => {
  let t: TestApp;
  let port: number;
  let origin: string;
  const sessions: http2.ClientHttp2Session[] = [];
  const connect = async () => {
    const session = await h2Connect(origin, pki.ca);
    sessions.push(session);
    return session;
  };

  const start = async (files: IssuedCertificate, config: Partial<Config> = {}) => {
    t = await createTestApp({ tls: { certFile: files.certFile, keyFile: files.keyFile }, ...config });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    origin = `https://localhost:${port}`;
  };
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.destroy();
    await t.close();
  });

  it('answers HTTP/2 to a client offering h2, with Strict-Transport-Security', async () => {
    await start(first);
    const session = await connect();
    expect(session.alpnProtocol).toBe('h2');
    const answer = await h2Request(session, '/api/Consumer/Version');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ DefaultVersion: '3.3' });
    expect(answer.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // Refusals carry it too.
    const refused = await h2Request(session, '/api/Consumer/PushMessageUsers');
    expect(refused.status).toBe(401);
    expect(refused.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it('answers HTTP/1.1 to a client offering only http/1.1, with Strict-Transport-Security', async () => {
    await start(first);
    const answer = await https1Request(`${origin}/api/Consumer/Version`, pki.ca, { ALPNProtocols: ['http/1.1'] });
    expect(answer.alpn).toBe('http/1.1');
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    expect(answer.serialNumber).toBe(first.serialNumber);
    // A client that offers no ALPN at all gets HTTP/1.1 as well.
    const plain = await https1Request(`${origin}/api/health/live`, pki.ca);
    expect(plain.status).toBe(200);
  });

  it('refuses TLS 1.0 and 1.1 handshakes and takes 1.2 and 1.3', async () => {
    await start(first);
    for (const version of ['TLSv1', 'TLSv1.1'] as const) {
      const outcome = await handshake(port, pki.ca, { minVersion: version, maxVersion: version });
      // The server's protocol_version alert (this client does offer these versions to a server that takes them).
      expect(outcome, version).toEqual({ error: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
    }
    expect(await handshake(port, pki.ca, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).toEqual({
      protocol: 'TLSv1.2',
    });
    expect(await handshake(port, pki.ca, { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' })).toEqual({
      protocol: 'TLSv1.3',
    });
  });

  it('widens TLS 1.2 for old clients only with TLS_OLD_CLIENTS, and asks for preload only with HSTS_PRELOAD', async () => {
    const rsa = pki.issue('rsa-old', '3003', 'rsa');
    const tls12 = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const;
    await start(rsa, {
      tls: { certFile: rsa.certFile, keyFile: rsa.keyFile, oldClients: true },
      hstsPreload: true,
    });
    for (const cipher of ['AES128-GCM-SHA256', 'ECDHE-RSA-AES128-SHA']) {
      expect(await tryHandshake(port, pki.ca, { ...tls12, ciphers: cipher }), cipher).toMatchObject({ cipher });
    }
    // The server's order then keeps a modern client on forward secrecy and AEAD, whatever it lists first.
    expect(
      await tryHandshake(port, pki.ca, { ...tls12, ciphers: 'AES128-SHA:ECDHE-RSA-AES128-GCM-SHA256' }),
    ).toMatchObject({ cipher: 'ECDHE-RSA-AES128-GCM-SHA256' });
    // Still never below TLS 1.2, nor a group outside the three.
    expect(await handshake(port, pki.ca, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1' })).toHaveProperty('error');
    expect(await tryHandshake(port, pki.ca, { ecdhCurve: 'X448' })).toHaveProperty('error');
    const session = await connect();
    expect((await h2Request(session, '/api/health/live')).headers['strict-transport-security']).toBe(
      'max-age=63072000; includeSubDomains; preload',
    );
  });

  it('streams live changes (Server-Sent Events) over HTTP/2', async () => {
    await start(first);
    const session = await connect();
    const signIn = await h2Request(
      session,
      '/api/Consumer/Authentication',
      { ':method': 'POST', 'content-type': 'application/json' },
      JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
    );
    expect(signIn.status, signIn.body).toBe(200);
    const token = (JSON.parse(signIn.body) as { Token: string }).Token;
    const stream = session.request({ ':path': '/api/Consumer/Events', authorization: `Bearer ${token}` });
    stream.setEncoding('utf8');
    const head = new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once('response', resolve));
    let text = '';
    const firstEvent = new Promise<ChangeEvent>((resolve) => {
      stream.on('data', (chunk: string) => {
        text += chunk;
        const data = /^data: (.*)$/m.exec(text)?.[1];
        if (data) resolve(ChangeEvent.parse(JSON.parse(data)));
      });
    });
    const headers = await head;
    expect(headers[':status']).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers.connection).toBeUndefined();
    const created = await demoCreateRequest(t, token);
    expect(await firstEvent).toEqual({
      Type: 'authorization-request',
      Id: created.Id,
      Status: 'Pending',
      ChangedBy: 'DEMO\\admin',
    });
    stream.close();
  });

  it('serves the dashboard files over HTTP/2, compressed copies included', async () => {
    const webRoot = fs.mkdtempSync(path.join(pki.folder, 'web-'));
    const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Tachyon</title>');
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), script);
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(script));
    await start(first, { webRoot });
    const session = await connect();
    const page = await h2Request(session, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Tachyon</title>');
    expect(page.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    const asset = await new Promise<{ headers: http2.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const stream = session.request({ ':path': '/assets/app-abc123.js', 'accept-encoding': 'br, gzip' });
      const chunks: Buffer[] = [];
      let headers: http2.IncomingHttpHeaders = {};
      stream.on('response', (received) => {
        headers = received;
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve({ headers, body: Buffer.concat(chunks) }));
      stream.on('error', reject);
      stream.end();
    });
    expect(asset.headers[':status']).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(asset.body).toString()).toBe(script);
  });

  it('answers 408 to an HTTP/2 request whose body never finishes, and closes its stream', async () => {
    await start(first, { requestTimeoutSeconds: 1 });
    const session = await connect();
    const stream = session.request({
      ':method': 'POST',
      ':path': '/api/Consumer/Authentication',
      'content-type': 'application/json',
      'content-length': '1000',
    });
    stream.setEncoding('utf8');
    stream.on('error', () => {});
    const status = new Promise<number>((resolve) =>
      stream.once('response', (headers) => resolve(Number(headers[':status']))),
    );
    let body = '';
    stream.on('data', (chunk: string) => {
      body += chunk;
    });
    const closed = new Promise<void>((resolve) => stream.once('close', resolve));
    const started = Date.now();
    stream.write('{');
    const trickle = setInterval(() => !stream.destroyed && stream.write(' '), 200);
    try {
      await closed;
    } finally {
      clearInterval(trickle);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await status).toBe(408);
    expect(Problem.parse(JSON.parse(body))).toMatchObject({ status: 408, type: problemType('malformed-request') });
    // The session itself goes on.
    expect((await h2Request(session, '/api/health/live')).status).toBe(200);
  }, 15_000);

  it('answers 408 to an HTTP/1.1 request over TLS whose body never finishes', async () => {
    await start(first, { requestTimeoutSeconds: 1 });
    const socket = tls.connect({
      host: '127.0.0.1',
      port,
      ca: pki.ca,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    let text = '';
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    await new Promise<void>((resolve) => socket.once('secureConnect', resolve));
    const head = ['POST /api/Consumer/Authentication HTTP/1.1', 'Host: localhost', 'Content-Type: application/json'];
    socket.write(`${head.join('\r\n')}\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    try {
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    } finally {
      clearInterval(trickle);
    }
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain(`content-type: ${PROBLEM_CONTENT_TYPE}`);
  }, 15_000);

  it('closes promptly while an idle HTTP/2 session is open', async () => {
    await start(first);
    const session = await connect();
    expect((await h2Request(session, '/api/health/live')).status).toBe(200);
    const closed = new Promise<void>((resolve) => session.once('close', resolve));
    const started = Date.now();
    await t.app.close();
    await closed;
    // Without GOAWAY to its sessions, a Node 20 server waits for their 72-second idle time-out.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('finishes an HTTP/2 request in flight when it closes, telling the client (GOAWAY) to open no more', async () => {
    await start(first);
    const session = await connect();
    const body = JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] });
    const stream = session.request({
      ':method': 'POST',
      ':path': '/api/Consumer/Authentication',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    });
    stream.setEncoding('utf8');
    const status = new Promise<number>((resolve) =>
      stream.once('response', (headers) => resolve(Number(headers[':status']))),
    );
    let text = '';
    stream.on('data', (chunk: string) => {
      text += chunk;
    });
    const ended = new Promise<void>((resolve) => stream.once('end', resolve));
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    stream.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = t.app.close();
    await goaway;
    stream.end(body.slice(10));
    await ended;
    expect(await status).toBe(200);
    expect(JSON.parse(text)).toHaveProperty('Token');
    await closed;
  });

  it('serves a renewed certificate to new connections after the signal, and keeps open ones', async () => {
    const files = {
      certFile: path.join(pki.folder, 'live.pem'),
      keyFile: path.join(pki.folder, 'live.key'),
    };
    fs.copyFileSync(first.certFile, files.certFile);
    fs.copyFileSync(first.keyFile, files.keyFile);
    await start({ ...first, ...files });
    const capture = logCapture('info');
    const stop = reloadTlsOnSignal(t.app.server, files, pino(capture.logger, capture.logger.stream), 'SIGUSR2');
    try {
      const open = await connect();
      expect((await h2Request(open, '/api/health/live')).status).toBe(200);
      expect(await servedSerial(port, pki.ca)).toBe(first.serialNumber);

      fs.copyFileSync(second.certFile, files.certFile);
      fs.copyFileSync(second.keyFile, files.keyFile);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(await servedSerial(port, pki.ca)).toBe(second.serialNumber);
      // The connection made before the renewal goes on working on its own certificate.
      expect((await h2Request(open, '/api/health/live')).status).toBe(200);
      const renewed = await h2Connect(origin, pki.ca);
      sessions.push(renewed);
      expect((await h2Request(renewed, '/api/health/live')).status).toBe(200);
      const reloaded = capture.lines.find((line) => line.msg.includes('TLS certificate reloaded'));
      expect(reloaded?.certificate).toMatchObject({
        serialNumber: second.serialNumber,
        fingerprint256: second.fingerprint256,
      });

      // A key that does not belong to the certificate: the one being served stays, and the log says why.
      fs.copyFileSync(first.certFile, files.certFile);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(await servedSerial(port, pki.ca)).toBe(second.serialNumber);
      const refused = capture.lines.find((line) => line.level === 50);
      expect(refused?.msg).toMatch(/TLS certificate not reloaded, the one already loaded is still served/);
      expect(refused?.msg).toMatch(/do not make a usable pair/);

      // A file that is gone: the same.
      fs.rmSync(files.keyFile);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(await servedSerial(port, pki.ca)).toBe(second.serialNumber);
      expect(capture.lines.filter((line) => line.level === 50).at(-1)?.msg).toMatch(/TLS_KEY_FILE .* cannot be read/);
      expect((await h2Request(open, '/api/health/live')).status).toBe(200);
    } finally {
      stop();
    }
  });
});

describe('loading the certificate and key', () => {
  it('reads a chain and its key, and names the certificate', () => {
    const material = loadTlsMaterial(first);
    expect(material.certificate).toMatchObject({
      serialNumber: first.serialNumber,
      fingerprint256: first.fingerprint256,
      subject: 'CN=localhost',
    });
    expect(material.context.minVersion).toBe('TLSv1.2');
  });

  it.each([
    [
      'a missing certificate',
      () => ({ ...first, certFile: '/nonexistent/cert.pem' }),
      /TLS_CERT_FILE \/nonexistent\/cert\.pem cannot be read/,
    ],
    [
      'a missing key',
      () => ({ ...first, keyFile: '/nonexistent/key.pem' }),
      /TLS_KEY_FILE \/nonexistent\/key\.pem cannot be read/,
    ],
    ['a key file as the certificate', () => ({ ...first, certFile: first.keyFile }), /holds no PEM certificate/],
    ['the key of another certificate', () => ({ ...first, keyFile: second.keyFile }), /do not make a usable pair/],
  ])('stops the start with %s, saying why', (_what, files, message) => {
    expect(() => loadTlsMaterial(files())).toThrow(TlsLoadError);
    expect(() => loadTlsMaterial(files())).toThrow(message);
  });

  it('stops the app from being made at all with a bad pair', async () => {
    await expect(createTestApp({ tls: { certFile: first.certFile, keyFile: second.keyFile } })).rejects.toThrow(
      /do not make a usable pair/,
    );
  });
});
