import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const HEARTBEAT_MS = 15_000;
/**
 * How often an open stream checks that its caller still stands (a session signed out, past a deadline or without
 * the permission; a device removed): the stream ends within this time of any of them.
 */
export const STREAM_SESSION_CHECK_MS = 2_000;

export interface EventStream {
  /** One event: its type, its JSON data and, for streams that resume, its id (sent back as Last-Event-ID). */
  send(type: string, data: unknown, id?: number): void;
  end(): void;
}

export interface EventStreamOptions {
  /**
   * Whether the caller still may listen, asked every checkEveryMs; false (or a failure) ends the stream. Absent for a
   * stream that learns of the end of its caller's access another way (and ends itself).
   */
  stillAllowed?: () => Promise<boolean>;
  /** How often to ask stillAllowed; STREAM_SESSION_CHECK_MS unless the caller has a cheaper way to notice. */
  checkEveryMs?: number;
  /** Called once when the stream ends, whoever ends it. */
  onEnd?: () => void;
}

/**
 * Server-Sent Events for the live streams (the dashboard's changes, a device's events): clients read them with
 * fetch, since they authenticate with a header EventSource cannot send. A comment line every 15 s keeps proxies
 * from closing an idle stream; the caller's right to listen is checked every few seconds as background traffic.
 * Streams never go idle, so shutdown ends them first; otherwise close would wait for them.
 */
export function eventStreams(app: FastifyInstance): {
  open(request: FastifyRequest, reply: FastifyReply, options: EventStreamOptions): EventStream;
} {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  return {
    open(request, reply, { stillAllowed, checkEveryMs = STREAM_SESSION_CHECK_MS, onEnd }) {
      reply.hijack();
      const raw = reply.raw;
      // Headers set so far (security, Api-Version) still apply to the hijacked response.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) raw.setHeader(name, value);
      }
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        // HTTP/2 has no Connection header (Node drops it with a warning); its streams stay open without one.
        ...(request.raw.httpVersionMajor === 2 ? {} : { connection: 'keep-alive' }),
      });
      raw.write(': connected\n\n');
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let checking = false;
      const check =
        stillAllowed &&
        setInterval(() => {
          if (checking) return;
          checking = true;
          stillAllowed()
            .then((allowed) => {
              if (!allowed) end();
            })
            .catch((error: unknown) => request.log.warn({ err: error }, 'live stream: access check failed'))
            .finally(() => {
              checking = false;
            });
        }, checkEveryMs);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearInterval(check);
        open.delete(end);
        onEnd?.();
        raw.end();
      };
      open.add(end);
      request.raw.once('close', end);
      // The caller may have left while the route did its own work first: that close has been and gone, so the stream
      // ends now, or what it holds (its place under the caps, its timers) would be held for good.
      if (request.raw.destroyed || raw.destroyed) end();
      return {
        send(type, data, id) {
          if (ended) return;
          raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
        },
        end,
      };
    },
  };
}
