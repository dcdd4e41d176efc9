import type { FastifyInstance } from 'fastify';
import { endpoints, MAX_STREAMS_PER_SESSION } from '../../shared/contract/index.ts';
import { hasPermission } from '../domain/principals.ts';
import { ProblemError } from '../domain/problem-error.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

const HEARTBEAT_MS = 15_000;
/**
 * How often an open stream checks that its session still stands (signed out, idle or absolute deadline passed,
 * account disabled, Security Read removed): the stream ends within this time of any of them. The check is
 * background traffic, so it never extends the idle deadline.
 */
export const STREAM_SESSION_CHECK_MS = 2_000;

/**
 * The live change stream as Server-Sent Events. Clients read it with fetch (it needs the bearer header,
 * which EventSource cannot send). A comment line every 15 s keeps proxies from closing an idle stream.
 */
export function changeEventRoutes(app: FastifyInstance, { changes, sessions }: Services): void {
  const open = new Set<() => void>();
  /** Open streams per session (token hash), in this process. */
  const perSession = new Map<string, number>();
  // Streams never go idle, so shutdown ends them first; otherwise close would wait for them.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  registerEndpoint(app, endpoints.changeEvents, ({ request, reply }) => {
    const session = sessionOf(request);
    const { tokenHash } = session;
    const count = perSession.get(tokenHash) ?? 0;
    if (count >= MAX_STREAMS_PER_SESSION) {
      throw new ProblemError(
        429,
        'too-many-requests',
        'Too many live streams',
        `This session already has ${MAX_STREAMS_PER_SESSION} live streams open; close one (a tab) before opening another.`,
        { headers: { 'Retry-After': '30' } },
      );
    }
    perSession.set(tokenHash, count + 1);
    reply.hijack();
    const raw = reply.raw;
    // Headers set so far (security, Api-Version, Cache-Control) still apply to the hijacked response.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) raw.setHeader(name, value);
    }
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.write(': connected\n\n');
    const unsubscribe = changes.subscribe((event) => {
      raw.write(`event: ${event.Type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    let checking = false;
    const sessionCheck = setInterval(() => {
      if (checking) return;
      checking = true;
      sessions
        .authenticate(session.token, 'background')
        .then((current) => {
          const { access } = endpoints.changeEvents;
          if (!current) end();
          else if (access.kind === 'permission' && !hasPermission(current.principal, access.entity, access.permission))
            end();
        })
        .catch((error: unknown) => request.log.warn({ err: error }, 'live stream: session check failed'))
        .finally(() => {
          checking = false;
        });
    }, STREAM_SESSION_CHECK_MS);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearInterval(sessionCheck);
      unsubscribe();
      open.delete(end);
      const left = (perSession.get(tokenHash) ?? 1) - 1;
      if (left > 0) perSession.set(tokenHash, left);
      else perSession.delete(tokenHash);
      raw.end();
    };
    open.add(end);
    request.raw.once('close', end);
    // Hijacked: the stream is the answer, there is nothing for Fastify to send.
    return undefined;
  });
}
