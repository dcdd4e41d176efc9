import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';

const HEARTBEAT_MS = 15_000;

/**
 * The live change stream as Server-Sent Events. Clients read it with fetch (it needs the bearer header,
 * which EventSource cannot send). A comment line every 15 s keeps proxies from closing an idle stream.
 */
export function changeEventRoutes(app: FastifyInstance, { changes }: Services): void {
  const open = new Set<() => void>();
  // Streams never go idle, so shutdown ends them first; otherwise close would wait for them.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  registerEndpoint(app, endpoints.changeEvents, ({ request, reply }) => {
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
      connection: 'keep-alive',
    });
    raw.write(': connected\n\n');
    const unsubscribe = changes.subscribe((event) => {
      raw.write(`event: ${event.Type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      raw.end();
    };
    open.add(end);
    request.raw.once('close', end);
  });
}
