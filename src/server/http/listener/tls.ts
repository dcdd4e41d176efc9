import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import http2 from 'node:http2';
import tls from 'node:tls';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../../../shared/contract/index.ts';
import { clientErrorProblem } from '../problem-handler.ts';

/** The PEM files the service's own certificate comes from (TLS_CERT_FILE, TLS_KEY_FILE). */
export interface TlsFiles {
  /** The certificate, optionally followed by its intermediates (a chain). */
  certFile: string;
  keyFile: string;
}

/** Older protocol versions have known weaknesses; every current client speaks 1.2 or 1.3. */
export const TLS_MIN_VERSION = 'TLSv1.2';

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
  const context: tls.SecureContextOptions = { cert, key, minVersion: TLS_MIN_VERSION };
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
    const server = http2.createSecureServer({ ...material.context, allowHTTP1: true }, listener);
    Object.assign(server, timeouts);
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
