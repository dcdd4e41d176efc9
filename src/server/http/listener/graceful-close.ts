import type { FastifyInstance } from 'fastify';

/** How often a closing server looks for connections that have finished their last request. */
const SWEEP_MS = 50;

/**
 * SPEC §3 "Running it": the service stops cleanly, finishing the requests in flight.
 *
 * Closing a Node server closes the connections idle at that moment and then waits for every other
 * one to end. A keep-alive connection whose request was in progress becomes idle once answered and
 * would hold the shutdown open until its keep-alive timeout (72 s). So while closing, every answer
 * says `Connection: close`, and connections that have gone idle are closed as they do.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweeper: NodeJS.Timeout | null = null;

  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    // An HTTP/2 server has the method only where Node tracks its HTTP/1.1 connections (20.20 does).
    if (typeof app.server.closeIdleConnections !== 'function') return;
    sweeper = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
    sweeper.unref();
  });
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper);
  });
  // Sync: this hook runs on every response, and an async one costs a promise each time.
  // HTTP/2 has no Connection header (Node drops it with a warning): its sessions get GOAWAY instead (http/tls.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing && !reply.sent && request.raw.httpVersionMajor !== 2) reply.header('Connection', 'close');
    done(null, payload);
  });
}
