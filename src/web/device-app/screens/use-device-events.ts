import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/core/api-error.ts';
import type { DeviceCredential } from '../connection/device-credential.ts';
import { streamDeviceEvents } from '../connection/device-events.ts';
import { deviceEventReceived, deviceQueries } from '../connection/device-queries.ts';

/** Waits between reconnections: quick at first (a phone switching networks), then calmer. */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Keeps the device's state and inbox current from its live stream, reconnecting with Last-Event-ID so nothing sent
 * meanwhile is missed. `live` is false while the stream is down (or the service has none): the caller polls then.
 * A phone that comes back to the page reconnects at once instead of waiting out the delay.
 */
export function useDeviceEvents(credential: DeviceCredential, enabled: boolean): { live: boolean } {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let lastEventId: string | null = null;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let connected = false;

    const connect = () => {
      clearTimeout(timer);
      timer = undefined;
      streamDeviceEvents({
        deviceToken: credential.token,
        lastEventId,
        signal: controller.signal,
        onOpen: () => {
          connected = true;
          failures = 0;
          setLive(true);
          // What changed before the stream opened (or while it was down, without an id to resume from).
          if (lastEventId === null) void queryClient.invalidateQueries({ queryKey: deviceQueries.all });
        },
        onEvent: (event, id) => {
          if (id) lastEventId = id;
          deviceEventReceived(queryClient, credential, event);
        },
      })
        .then((end) => ended(end === 'unavailable' ? 'stop' : 'retry'))
        .catch((error: unknown) => ended(isApiError(error) && error.status === 401 ? 'stop' : 'retry'));
    };

    const ended = (next: 'stop' | 'retry') => {
      connected = false;
      if (controller.signal.aborted) return;
      setLive(false);
      if (next === 'stop') return;
      const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 30_000;
      failures++;
      timer = setTimeout(connect, delay);
    };

    const onVisible = () => {
      if (document.visibilityState === 'visible' && !connected && timer !== undefined) connect();
    };
    document.addEventListener('visibilitychange', onVisible);
    connect();
    return () => {
      controller.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [queryClient, credential, enabled]);

  // The service worker got a push: the inbox (or the notices) ask now rather than at their next poll (the stream may
  // be down).
  useEffect(() => {
    const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
    if (!worker || !enabled) return;
    const onMessage = (event: MessageEvent<{ type?: unknown }>) => {
      const query = event.data?.type === 'device-notice' ? deviceQueries.notices : deviceQueries.pushes;
      void queryClient.invalidateQueries({ queryKey: query(credential).queryKey });
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
  }, [queryClient, credential, enabled]);

  return { live };
}
