import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, Problem, problemType } from '../../shared/contract/index.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

/** What a socket received and whether the service closed it, after sending headers then a body byte at a time. */
async function trickle(port: number, everyMs: number, giveUpMs: number): Promise<{ text: string; closed: boolean }> {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  // Writes after the service closed the socket fail; the close is what the test watches.
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    'POST /api/Consumer/Authentication HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  );
  const timer = setInterval(() => socket.writable && socket.write(' '), everyMs);
  const closed = await new Promise<boolean>((resolve) => {
    const giveUp = setTimeout(() => resolve(false), giveUpMs);
    socket.once('close', () => {
      clearTimeout(giveUp);
      resolve(true);
    });
  });
  clearInterval(timer);
  socket.destroy();
  return { text, closed };
}

describe('a request body that never finishes', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('is answered 408 with a problem, and its connection closed, once the request time-out has passed', async () => {
    t = await createTestApp({ requestTimeoutSeconds: 1 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const started = Date.now();
    // A byte every 200 ms: the connection is never idle, the body never complete.
    const { text, closed } = await trickle(address.port, 200, 8_000);
    expect(closed, `still open after 8 s; received: ${text}`).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain(`content-type: ${PROBLEM_CONTENT_TYPE}`);
    const problem = Problem.parse(JSON.parse(body));
    expect(problem).toMatchObject({ status: 408, type: problemType('malformed-request') });
  }, 15_000);
});
