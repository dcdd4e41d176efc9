import type { z } from 'zod/mini';

/** Why a stream ended: the server has no such stream (poll instead), or the connection dropped (connect again). */
export type StreamEnd = 'unavailable' | 'closed';

/**
 * Starts loading the SSE parser. It is not needed to paint a page: callers start it as their request goes out, so it
 * loads while the stream connects.
 */
export function loadEventStreamParser() {
  const parserModule = import('eventsource-parser');
  parserModule.catch(() => undefined); // awaited by readEventStream, unless the server has no stream
  return parserModule;
}

/**
 * A refusal that passes: the server failing, or too many streams for now (429), which is also what a client's own
 * stream left a moment ago answers until the server has let it go. Tried again, like a dropped connection.
 */
const passes = (status: number) => status === 429 || (status >= 500 && status !== 501);

/**
 * Reads a Server-Sent Events answer until it ends: each event whose data is JSON of `schema` goes to `onEvent`, with
 * its id; anything else (comments, keep-alives, events of kinds this client does not know) is skipped. An answer that
 * is no stream is 'unavailable' (a server without the extension, or refusing it for good), unless its refusal passes
 * ('closed': try again).
 */
export async function readEventStream<S extends z.ZodMiniType>(
  response: Response,
  parserModule: ReturnType<typeof loadEventStreamParser>,
  schema: S,
  onEvent: (event: z.output<S>, id: string | null) => void,
  onOpen?: () => void,
): Promise<StreamEnd> {
  if (!response.ok || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
    await response.body?.cancel().catch(() => undefined);
    return passes(response.status) ? 'closed' : 'unavailable';
  }
  onOpen?.();
  const { createParser } = await parserModule;
  const parser = createParser({
    onEvent(message) {
      try {
        const parsed = schema.safeParse(JSON.parse(message.data));
        if (parsed.success) onEvent(parsed.data, message.id ?? null);
      } catch {
        // not JSON: a comment or keep-alive
      }
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 'closed';
    parser.feed(value);
  }
}
