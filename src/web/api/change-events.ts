import {
  API_VERSION_HEADER,
  availability,
  BACKGROUND_REQUEST_HEADER,
  ChangeEvent,
  endpointPath,
  endpoints,
} from '../../shared/contract/index.ts';
import { sessionStore } from '../session/session-store.ts';
import { activeApiVersion } from '../settings/resolve-version.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { joinUrl } from './client.ts';

/** Why a stream ended: the server has no such extension (poll instead), or the connection dropped (retry). */
export type StreamEnd = 'unavailable' | 'closed';

/**
 * The live change stream (extension, Server-Sent Events). Read with fetch streaming because it needs the Bearer
 * header, which EventSource cannot send. Resolves when the stream ends; rejects on network errors.
 */
export async function streamChangeEvents(
  onEvent: (event: ChangeEvent) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<StreamEnd> {
  const session = sessionStore.get();
  const settings = settingsStore.get();
  const version = activeApiVersion(session);
  if (!session || !availability(endpoints.changeEvents, version).available) return 'unavailable';
  // The SSE parser is not needed to paint the queue: it loads while the stream connects, not with the page.
  const parserModule = import('eventsource-parser');
  parserModule.catch(() => undefined); // awaited below, unless the server has no stream
  const response = await fetch(joinUrl(settings.baseUrl, endpointPath(endpoints.changeEvents)), {
    headers: {
      Accept: 'text/event-stream',
      Authorization: `Bearer ${session.token}`,
      'X-Tachyon-Authenticate': session.token,
      [API_VERSION_HEADER]: version,
      'X-Tachyon-Consumer': settings.consumerName,
      // A stream is never the person's doing: it must not keep an unattended page signed in.
      [BACKGROUND_REQUEST_HEADER]: '1',
    },
    cache: 'no-store',
    signal,
  });
  // A real server without our extensions: 404 (or 405/501). Anything else that is not a stream: also poll.
  if (!response.ok || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
    await response.body?.cancel().catch(() => undefined);
    return response.status >= 500 && response.status !== 501 ? 'closed' : 'unavailable';
  }
  onOpen?.();
  const { createParser } = await parserModule;
  const parser = createParser({
    onEvent(message) {
      try {
        const parsed = ChangeEvent.safeParse(JSON.parse(message.data));
        if (parsed.success) onEvent(parsed.data);
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
