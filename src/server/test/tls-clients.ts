import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';

/** What a test reads from an answer over HTTPS. */
export interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on an open HTTP/2 session. */
export function h2Request(
  session: http2.ClientHttp2Session,
  path: string,
  headers: http2.OutgoingHttpHeaders = {},
  body?: string,
): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, ...headers });
    let status = 0;
    let answerHeaders: TlsAnswer['headers'] = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => {
      status = Number(received[':status']);
      answerHeaders = received;
    });
    stream.on('data', (chunk: string) => {
      text += chunk;
    });
    stream.on('end', () => resolve({ status, headers: answerHeaders, body: text }));
    stream.on('error', reject);
    stream.end(body);
  });
}

/** An HTTP/2 session to `origin`, trusting `ca`, once its TLS handshake is done. */
export function h2Connect(origin: string, ca: string): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin, { ca });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** One HTTP/1.1 request over TLS (a fresh connection, offering only http/1.1), trusting `ca`. */
export function https1Request(
  url: string,
  ca: string,
  options: https.RequestOptions & tls.ConnectionOptions = {},
): Promise<TlsAnswer & { alpn: string | false | null; serialNumber: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { ca, agent: false, ...options }, (response) => {
      const socket = response.socket as tls.TLSSocket;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text,
          alpn: socket.alpnProtocol,
          serialNumber: socket.getPeerCertificate().serialNumber,
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** The serial number of the certificate a new TLS connection to the port is given (upper-case hex). */
export function servedSerial(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial);
    });
    socket.once('error', reject);
  });
}

/** Tries a handshake limited to these protocol versions: the version agreed on, or the error's code. */
export function handshake(
  port: number,
  ca: string,
  versions: { minVersion: tls.SecureVersion; maxVersion: tls.SecureVersion },
): Promise<{ protocol: string | null } | { error: string }> {
  return new Promise((resolve) => {
    // Security level 0 lets this client offer TLS 1.0 and 1.1 at all, so the refusal is the server's.
    const socket = tls.connect(
      { host: '127.0.0.1', port, ca, servername: 'localhost', ciphers: 'DEFAULT@SECLEVEL=0', ...versions },
      () => {
        const protocol = socket.getProtocol();
        socket.end();
        resolve({ protocol });
      },
    );
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** What a handshake agreed on: protocol, suite (OpenSSL's name) and key exchange group; or the error's code. */
export type HandshakeOutcome =
  | { protocol: string | null; cipher: string; group: string | undefined }
  | { error: string };

/** Tries one handshake with these client options (suites, groups, versions), trusting `ca`. */
export function tryHandshake(port: number, ca: string, options: tls.ConnectionOptions): Promise<HandshakeOutcome> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...options }, () => {
      const outcome = {
        protocol: socket.getProtocol(),
        cipher: socket.getCipher().name,
        group: (socket.getEphemeralKeyInfo() as { name?: string } | null)?.name,
      };
      socket.end();
      resolve(outcome);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}
