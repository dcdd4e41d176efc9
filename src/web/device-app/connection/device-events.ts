import { deviceAppEndpoints } from '../../../shared/contract/device-endpoints.ts';
import { API_PREFIX, DEFAULT_API_VERSION, DeviceEvent, endpointPath } from '../../../shared/contract/index.ts';
import { errorFromResponse } from '../../api/core/api-error.ts';
import { joinUrl } from '../../api/core/client.ts';
import { loadEventStreamParser, readEventStream, type StreamEnd } from '../../api/core/event-stream-reader.ts';
import { requestHeaders } from '../../api/core/request-headers.ts';
import { DEVICE_APP_CONSUMER_NAME, reportDeviceCredentialEnded } from './device-instance.ts';

export interface DeviceStreamOptions {
  deviceToken: string;
  /** The last event's id seen, sent as Last-Event-ID so the service sends what was missed first. */
  lastEventId: string | null;
  onEvent: (event: DeviceEvent, id: string | null) => void;
  onOpen?: () => void;
  signal: AbortSignal;
  fetch?: typeof globalThis.fetch;
}

/**
 * This device's live events (Server-Sent Events). Read with fetch streaming, since EventSource cannot send the
 * Device authorization header. Resolves when the stream ends; rejects on network errors, and with the ApiError of a
 * 401 (the credential ended, also reported to the app).
 */
export async function streamDeviceEvents({
  deviceToken,
  lastEventId,
  onEvent,
  onOpen,
  signal,
  fetch = globalThis.fetch,
}: DeviceStreamOptions): Promise<StreamEnd> {
  const parserModule = loadEventStreamParser();
  const headers = requestHeaders({
    accept: 'text/event-stream',
    version: DEFAULT_API_VERSION,
    consumer: DEVICE_APP_CONSUMER_NAME,
    credential: { device: deviceToken },
  });
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  const response = await fetch(joinUrl(API_PREFIX, endpointPath(deviceAppEndpoints.deviceEvents)), {
    headers,
    cache: 'no-store',
    signal,
  });
  if (response.status === 401) {
    const error = await errorFromResponse(response);
    reportDeviceCredentialEnded(error);
    throw error;
  }
  return readEventStream(response, parserModule, DeviceEvent, onEvent, onOpen);
}
