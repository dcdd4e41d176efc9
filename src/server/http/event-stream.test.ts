import net from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { eventStreams } from './event-stream.ts';

/**
 * A stream is opened after the route's own work (an access check, a database read): its caller may have left by then.
 * Such a stream must still end, or whatever it holds (a place under the live-stream caps) is never given back.
 */
describe('an event stream whose caller left before it opened', () => {
  const app = Fastify();
  afterEach(() => app.close());

  it('ends at once, and gives back what it held', async () => {
    let callerLeft: () => void = () => {};
    const left = new Promise<void>((resolve) => {
      callerLeft = resolve;
    });
    let handlerReached: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      handlerReached = resolve;
    });
    let ended: () => void = () => {};
    const streamEnded = new Promise<'ended'>((resolve) => {
      ended = () => resolve('ended');
    });
    const streams = eventStreams(app);
    app.get('/events', async (request, reply) => {
      handlerReached();
      // The route's own work outlasts the caller's patience.
      await left;
      await new Promise((resolve) => setTimeout(resolve, 50));
      streams.open(request, reply, { onEnd: ended });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;

    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    await reached;
    socket.destroy();
    callerLeft();

    const outcome = await Promise.race([
      streamEnded,
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 2_000)),
    ]);
    expect(outcome).toBe('ended');
  });
});
