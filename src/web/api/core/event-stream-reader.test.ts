import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { loadEventStreamParser, readEventStream } from './event-stream-reader.ts';

const Event = z.object({ Type: z.string() });
const read = (response: Response, events: unknown[] = []) =>
  readEventStream(response, loadEventStreamParser(), Event, (event) => events.push(event));

describe('readEventStream', () => {
  it('reads a stream to its end, skipping comments and what is not its schema', async () => {
    const body = ': connected\n\nevent: a\ndata: {"Type":"a"}\n\ndata: not json\n\ndata: {"Other":1}\n\n';
    const events: unknown[] = [];
    const end = await read(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), events);
    expect(end).toBe('closed');
    expect(events).toEqual([{ Type: 'a' }]);
  });

  it('tries again after a refusal that passes (too many streams for now, a server failing), not after one that stays', async () => {
    const answer = (status: number) => new Response('{}', { status, headers: { 'content-type': 'application/json' } });
    // Too many streams: a stream this client just left may not have been let go yet.
    expect(await read(answer(429))).toBe('closed');
    expect(await read(answer(503))).toBe('closed');
    // No such stream here, or not for this caller: polling is what is left.
    expect(await read(answer(404))).toBe('unavailable');
    expect(await read(answer(501))).toBe('unavailable');
    expect(await read(answer(403))).toBe('unavailable');
  });
});
