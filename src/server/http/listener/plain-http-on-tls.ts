import type net from 'node:net';
import type tls from 'node:tls';

/** The event a TLS server emits when a client spoke plain HTTP to it: the client's address, and the address given. */
export const PLAIN_HTTP_EVENT = 'plainHttpRequest';

export interface PlainHttpRequest {
  clientAddress: string;
  httpsAddress: string;
}

/** Every TLS connection starts with a handshake record (content type 22); every HTTP/1 request with a method's letter. */
const TLS_HANDSHAKE_RECORD = 0x16;
const looksLikeHttp = (byte: number) => byte >= 0x41 && byte <= 0x5a;

/** Bytes read of a plain-HTTP request before it is answered anyway, and how long it may take to send them. */
const REQUEST_HEAD_LIMIT = 8 * 1024;
const REQUEST_HEAD_MS = 5_000;

/** A Host header this answer may name: a DNS name, IPv4 or bracketed IPv6 address, and a port of digits only. */
const HOST_HEADER = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * A client that speaks plain HTTP to the HTTPS port (a person who typed http://, a proxy set up for HTTP) would
 * otherwise get a closed connection and no idea why. It gets a short 400 naming the https address instead, and the
 * connection closes: nothing of the app is ever served in clear. The server emits PLAIN_HTTP_EVENT for the log.
 */
export function answerPlainHttp(server: tls.Server): void {
  const tlsListeners = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: net.Socket) => {
    const handOver = () => {
      for (const listener of tlsListeners) listener.call(server, socket);
    };
    const onEarlyError = () => socket.destroy();
    socket.once('error', onEarlyError);
    // Before a byte arrives nothing is decided; the TLS socket made afterwards reads what is put back first.
    socket.once('readable', () => {
      socket.off('error', onEarlyError);
      const first = socket.read(1) as Buffer | null;
      if (first === null) return handOver();
      socket.unshift(first);
      const byte = first[0] ?? TLS_HANDSHAKE_RECORD;
      if (byte === TLS_HANDSHAKE_RECORD || !looksLikeHttp(byte)) return handOver();
      answer(server, socket);
    });
  });
}

function answer(server: tls.Server, socket: net.Socket): void {
  let head = '';
  const timer = setTimeout(() => respond(), REQUEST_HEAD_MS);
  timer.unref();
  socket.on('error', () => socket.destroy());
  socket.setEncoding('latin1');
  const onData = (chunk: string) => {
    head += chunk;
    if (head.includes('\r\n\r\n') || head.includes('\n\n') || head.length >= REQUEST_HEAD_LIMIT) respond();
  };
  socket.on('data', onData);
  let answered = false;
  function respond() {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    socket.off('data', onData);
    const httpsAddress = httpsAddressFor(head, socket);
    const body = `This port speaks HTTPS only. Use ${httpsAddress}\n`;
    socket.end(
      [
        'HTTP/1.1 400 Bad Request',
        'Content-Type: text/plain; charset=utf-8',
        'X-Content-Type-Options: nosniff',
        'Cache-Control: no-store',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    server.emit(PLAIN_HTTP_EVENT, {
      clientAddress: socket.remoteAddress ?? 'unknown',
      httpsAddress,
    } satisfies PlainHttpRequest);
  }
}

/** https:// and the host the client asked for (its Host header, when it is one), else this socket's own address. */
function httpsAddressFor(head: string, socket: net.Socket): string {
  const host = /^host:[ \t]*([^\r\n]*?)[ \t]*$/im.exec(head)?.[1] ?? '';
  if (HOST_HEADER.test(host)) return `https://${host}/`;
  const local = socket.localAddress ?? '127.0.0.1';
  return `https://${local.includes(':') ? `[${local}]` : local}:${socket.localPort}/`;
}

/** Clients remembered as already logged; past this many the oldest is forgotten (and may be logged again). */
const LOGGED_CLIENTS = 1_000;

/** A warning the first time each client speaks plain HTTP to the HTTPS port: a misconfigured proxy shows up once. */
export function logPlainHttpOnce(
  server: { on(event: string, listener: (request: PlainHttpRequest) => void): unknown },
  log: { warn(object: object, message: string): void },
): void {
  const logged = new Set<string>();
  server.on(PLAIN_HTTP_EVENT, ({ clientAddress, httpsAddress }) => {
    if (logged.has(clientAddress)) return;
    if (logged.size >= LOGGED_CLIENTS) logged.delete(logged.values().next().value as string);
    logged.add(clientAddress);
    log.warn(
      { clientAddress, httpsAddress },
      `Plain HTTP from ${clientAddress} on the HTTPS port: answered 400 naming ${httpsAddress} (logged once per client)`,
    );
  });
}
