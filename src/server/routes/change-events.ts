import type { FastifyInstance } from 'fastify';
import { endpoints, MAX_STREAMS_PER_SESSION } from '../../shared/contract/index.ts';
import { hasPermission } from '../domain/principals.ts';
import { ProblemError } from '../domain/problem-error.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import { eventStreams } from '../http/event-stream.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';

/** The dashboard's live change stream as Server-Sent Events (http/event-stream.ts). */
export function changeEventRoutes(app: FastifyInstance, { changes, sessions }: Services): void {
  const streams = eventStreams(app);
  /** Open streams per session (token hash), in this process. */
  const perSession = new Map<string, number>();

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
    let unsubscribe = () => {};
    const stream = streams.open(request, reply, {
      // A background check: an open stream never extends the idle deadline.
      stillAllowed: async () => {
        const current = await sessions.authenticate(session.token, 'background');
        const { access } = endpoints.changeEvents;
        return current !== null && hasPermission(current.principal, access.entity, access.permission);
      },
      onEnd: () => {
        unsubscribe();
        const left = (perSession.get(tokenHash) ?? 1) - 1;
        if (left > 0) perSession.set(tokenHash, left);
        else perSession.delete(tokenHash);
      },
    });
    unsubscribe = changes.subscribe((event) => {
      // Device signals are for the devices' own streams.
      if (event.Type !== 'device-signal') stream.send(event.Type, event);
    });
    // Hijacked: the stream is the answer, there is nothing for Fastify to send.
    return undefined;
  });
}
