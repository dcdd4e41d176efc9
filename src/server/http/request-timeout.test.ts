import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, Problem, problemType } from '../../shared/contract/index.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

/** What a socket received and whether the service closed it, after sending headers then a body byte at a time. */
async function trickle(
  port: number,
  everyMs: number,
  giveUpMs: number,
  url = '/api/Consumer/Authentication',
): Promise<{ text: string; closed: boolean }> {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  // Writes after the service closed the socket fail; the close is what the test watches.
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = [`POST ${url} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 1000'];
  socket.write(`${head.join('\r\n')}\r\n\r\n{`);
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

  it('sends no second answer when the request was refused before its body arrived', async () => {
    t = await createTestApp({ requestTimeoutSeconds: 1 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    // No credentials: 401 at once, while the body goes on arriving until the time-out ends the connection.
    const { text, closed } = await trickle(address.port, 200, 8_000, '/api/Demo/Reset');
    expect(closed).toBe(true);
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401']);
  }, 15_000);
});
