import type pino from 'pino';

/**
 * Ends an asynchronous pino destination: what is buffered is written, then it closes. Settles once it has closed,
 * failed, or `timeoutMs` passed, whichever comes first (a stuck stream must not hold the exit).
 */
export function endDestination(destination: ReturnType<typeof pino.destination>, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    destination.once('close', done);
    destination.once('error', done);
    try {
      destination.end();
    } catch {
      done();
    }
  });
}
