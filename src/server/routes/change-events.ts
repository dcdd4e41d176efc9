import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import { type EventStream, eventStreams } from '../http/event-stream.ts';
import { liveStreams } from './live-streams.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

/**
 * The dashboard's live change stream as Server-Sent Events (http/event-stream.ts), admitted, capped and ended with
 * its session by the live-stream registry (live-streams.ts).
 */
export function changeEventRoutes(app: FastifyInstance, services: Services): void {
  const { changes } = services;
  const registry = liveStreams(app, services);
  const streams = eventStreams(app);

  registerEndpoint(app, endpoints.changeEvents, ({ request, reply }) => {
    let wire: EventStream | null = null;
    let unsubscribe = () => {};
    // The session is checked on announcements and by the registry's sweep, not by a timer per stream.
    const stream = registry.admit(sessionOf(request), request.log, () => {
      unsubscribe();
      wire?.end();
    });
    try {
      const opened = streams.open(request, reply, { onEnd: () => stream.end() });
      wire = opened;
      unsubscribe = changes.subscribe((event) => {
        // Device signals are for the devices' own streams.
        if (event.Type !== 'device-signal') opened.send(event.Type, event);
      });
    } catch (error) {
      stream.end();
      throw error;
    }
    // Hijacked: the stream is the answer, there is nothing for Fastify to send.
    return undefined;
  });
}
