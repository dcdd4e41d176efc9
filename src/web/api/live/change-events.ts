import { availability, ChangeEvent, endpointPath, endpoints } from '../../../shared/contract/index.ts';
import { sessionStore } from '../../session/session-store.ts';
import { activeApiVersion } from '../../settings/resolve-version.ts';
import { settingsStore } from '../../settings/settings-store.ts';
import { joinUrl } from '../core/client.ts';
import { loadEventStreamParser, readEventStream, type StreamEnd } from '../core/event-stream-reader.ts';
import { requestHeaders } from '../core/request-headers.ts';

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
  const parserModule = loadEventStreamParser();
  const response = await fetch(joinUrl(settings.baseUrl, endpointPath(endpoints.changeEvents)), {
    headers: requestHeaders({
      accept: 'text/event-stream',
      version,
      consumer: settings.consumerName,
      credential: { session: session.token },
      // A stream is never the person's doing: it must not keep an unattended page signed in.
      background: true,
    }),
    cache: 'no-store',
    signal,
  });
  // A real server without our extensions answers 404 (or 405/501): the queue polls instead.
  return readEventStream(response, parserModule, ChangeEvent, (event) => onEvent(event), onOpen);
}
