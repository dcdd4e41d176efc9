import { constants as cryptoConstants, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import http2 from 'node:http2';
import tls from 'node:tls';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../../../shared/contract/index.ts';
import { clientErrorProblem } from '../problem-handler.ts';
import { answerPlainHttp } from './plain-http-on-tls.ts';

/** The PEM files the service's own certificate comes from (TLS_CERT_FILE, TLS_KEY_FILE). */
export interface TlsFiles {
  /** The certificate, optionally followed by its intermediates (a chain). */
  certFile: string;
  keyFile: string;
  /** TLS_OLD_CLIENTS: TLS 1.2 also offers the CBC and static-RSA suites very old clients need. Off by default. */
  oldClients?: boolean;
}

/** Older protocol versions have known weaknesses; every current client speaks 1.2 or 1.3. */
export const TLS_MIN_VERSION = 'TLSv1.2';

/**
 * Mozilla's "intermediate" server profile (version 5.7): TLS 1.3's three suites, and in TLS 1.2 forward secrecy
 * (ECDHE) with authenticated encryption (AES-GCM, ChaCha20-Poly1305) only. No CBC (Lucky13), CCM, ARIA or
 * static-RSA suite. Every browser and TLS library of the last ten years has one of these.
 */
export const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/**
 * What TLS_OLD_CLIENTS adds, after the profile's own (Mozilla's "old" profile's TLS 1.2 suites): ECDHE with CBC, then
 * static RSA, which has no forward secrecy. For TLS 1.2 clients without them, such as IE 11 on Windows 7 and 8.1.
 */
export const TLS_OLD_CLIENT_CIPHERS = [
  'ECDHE-ECDSA-AES128-SHA256',
  'ECDHE-RSA-AES128-SHA256',
  'ECDHE-ECDSA-AES128-SHA',
  'ECDHE-RSA-AES128-SHA',
  'ECDHE-ECDSA-AES256-SHA384',
  'ECDHE-RSA-AES256-SHA384',
  'ECDHE-ECDSA-AES256-SHA',
  'ECDHE-RSA-AES256-SHA',
  'AES128-GCM-SHA256',
  'AES256-GCM-SHA384',
  'AES128-SHA256',
  'AES256-SHA256',
  'AES128-SHA',
  'AES256-SHA',
].join(':');

/**
 * Key exchange groups, the client's preference first among them: no P-521, no X448 and, in TLS 1.3, no finite-field
 * group (a client could otherwise make the server do an 8192-bit DH on every handshake).
 */
export const TLS_GROUPS = 'X25519:P-256:P-384';

/** The protocol settings of the profile, the same at start and at every SIGHUP reload. */
export function tlsProfile(oldClients = false): tls.SecureContextOptions {
  return {
    minVersion: TLS_MIN_VERSION,
    ciphers: oldClients ? `${TLS_CIPHERS}:${TLS_OLD_CLIENT_CIPHERS}` : TLS_CIPHERS,
    ecdhCurve: TLS_GROUPS,
    // Every suite offered is strong, so the client picks (a phone without AES hardware prefers ChaCha20). With the
    // old clients' suites added, the server's order keeps modern clients on the strong ones.
    honorCipherOrder: oldClients,
    // A client renegotiating TLS 1.2 makes the server redo its key exchange at will; none of ours needs it.
    secureOptions: cryptoConstants.SSL_OP_NO_RENEGOTIATION,
  };
}

/** What a certificate is recognised by in the log: which one is being served after a reload. */
export interface CertificateSummary {
  subject: string;
  serialNumber: string;
  fingerprint256: string;
  validTo: string;
}

export interface TlsMaterial {
  /** Options for a secure context, as the server takes them at creation and in setSecureContext. */
  context: tls.SecureContextOptions;
  certificate: CertificateSummary;
}

/** The files could not be read, or do not form a usable certificate and key. */
export class TlsLoadError extends Error {}

/**
 * Reads both files and checks them the way the server will use them: a secure context is made, which fails when the
 * PEM is broken or the key does not belong to the certificate. So a bad pair is reported here, with its reason,
 * instead of by the first client's handshake.
 */
export function loadTlsMaterial(files: TlsFiles): TlsMaterial {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new TlsLoadError(`${what} ${file} cannot be read: ${(error as Error).message}`);
    }
  };
  const cert = read(files.certFile, 'TLS_CERT_FILE');
  const key = read(files.keyFile, 'TLS_KEY_FILE');
  const context: tls.SecureContextOptions = { cert, key, ...tlsProfile(files.oldClients) };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new TlsLoadError(`TLS_CERT_FILE ${files.certFile} holds no PEM certificate: ${(error as Error).message}`);
  }
  try {
    tls.createSecureContext(context);
  } catch (error) {
    throw new TlsLoadError(
      `TLS_CERT_FILE ${files.certFile} and TLS_KEY_FILE ${files.keyFile} do not make a usable pair: ${(error as Error).message}`,
    );
  }
  return {
    context,
    certificate: {
      subject: certificate.subject.replace(/\n/g, ', '),
      serialNumber: certificate.serialNumber,
      fingerprint256: certificate.fingerprint256,
      validTo: certificate.validTo,
    },
  };
}

/** The time-outs Node applies to HTTP/1.1 requests, which an HTTP/2 server falling back to HTTP/1.1 applies too. */
export interface Http1Timeouts {
  keepAliveTimeout: number;
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
}

/** Fastify's own idle time for an HTTP/2 session (its http2SessionTimeout default). */
const HTTP2_SESSION_IDLE_MS = 72_000;

/**
 * Requests one HTTP/2 connection may have open at once (browsers open about 100; Node's default is unlimited, so one
 * connection could hold thousands of streams and their buffers).
 */
export const HTTP2_MAX_CONCURRENT_STREAMS = 100;

/**
 * The service's server when it holds its own certificate: HTTPS on one port, HTTP/2 or HTTP/1.1 as the client's
 * ALPN offer says. Made here rather than with Fastify's `http2: true` so the rest of the app keeps its HTTP/1 types;
 * Fastify uses only what both servers share (listen, close, address, the request events).
 */
export function tlsServerFactory(material: TlsMaterial, timeouts: Http1Timeouts): FastifyServerFactory {
  return (handler) => {
    // Fastify's handler serves HTTP/2's compatibility requests as it does with its own `http2: true`.
    const listener = handler as unknown as (
      request: http2.Http2ServerRequest,
      response: http2.Http2ServerResponse,
    ) => void;
    const server = http2.createSecureServer(
      {
        ...material.context,
        allowHTTP1: true,
        settings: { maxConcurrentStreams: HTTP2_MAX_CONCURRENT_STREAMS },
      },
      listener,
    );
    Object.assign(server, timeouts);
    answerPlainHttp(server);
    const sessions = new Set<http2.ServerHttp2Session>();
    server.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
      session.setTimeout(HTTP2_SESSION_IDLE_MS, () => session.close());
    });
    // Closing a Node 20 server leaves HTTP/2 sessions open until they time out. Closing each session instead sends
    // GOAWAY: streams in flight finish, the client opens no new one, and the session ends once they have.
    server.on('stream', (stream) => limitRequestTime(stream, timeouts.requestTimeout));
    const close = server.close.bind(server);
    server.close = (callback?: (error?: Error) => void) => {
      for (const session of sessions) session.close();
      return close(callback);
    };
    return server as unknown as http.Server;
  };
}

/**
 * Node's request time-out covers HTTP/1.1 only. An HTTP/2 request whose body never finishes (a byte now and then)
 * would hold its stream, and its buffers, as long as the client likes: past the same time-out it gets the same 408
 * problem (unless it was answered already) and the stream is closed.
 */
function limitRequestTime(stream: http2.ServerHttp2Stream, requestTimeout: number): void {
  if (stream.endAfterHeaders) return;
  const timer = setTimeout(() => {
    if (stream.destroyed) return;
    const cancel = () => stream.close(http2.constants.NGHTTP2_CANCEL);
    if (stream.headersSent) return cancel();
    const { status, body } = clientErrorProblem('ERR_HTTP_REQUEST_TIMEOUT');
    stream.respond({ ':status': status, 'content-type': PROBLEM_CONTENT_TYPE });
    stream.end(body, cancel);
  }, requestTimeout);
  timer.unref();
  const done = () => clearTimeout(timer);
  stream.once('end', done);
  stream.once('close', done);
}

/**
 * SIGHUP reads both files again and serves the new certificate to new connections; open ones keep theirs. Files that
 * do not load leave the certificate being served as it is, and the log says why. Answers the function that stops
 * listening for the signal.
 */
export function reloadTlsOnSignal(
  server: http.Server,
  files: TlsFiles,
  log: FastifyBaseLogger,
  signal: NodeJS.Signals = 'SIGHUP',
): () => void {
  const reload = () => {
    try {
      const material = loadTlsMaterial(files);
      (server as unknown as tls.Server).setSecureContext(material.context);
      log.info({ certificate: material.certificate }, `${signal}: TLS certificate reloaded`);
    } catch (error) {
      log.error(
        { err: error, certFile: files.certFile, keyFile: files.keyFile },
        `${signal}: TLS certificate not reloaded, the one already loaded is still served. ${(error as Error).message}`,
      );
    }
  };
  process.on(signal, reload);
  return () => process.off(signal, reload);
}
