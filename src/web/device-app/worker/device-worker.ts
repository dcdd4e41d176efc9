// The device app's service worker (scope /device). It shows each two-factor push at once from its payload, with no
// request first: a phone may be offline by the time it would ask, and the payload already says everything. The
// payload never holds the code (phones show notifications on the lock screen); the code shows when the person opens
// the app. A click opens (or focuses) the device app. Built into /device-sw.js by vite.device.config.ts.
import { DEVICE_APP_PATH } from '../../../shared/contract/devices.ts';
import { WebPushPayload } from '../../../shared/contract/web-push-payload.ts';

const ICON = '/device-icon-192.png';

/** What a push that does not parse shows: still a prompt to open the app, never anything of the unparsed payload. */
export const FALLBACK_NOTIFICATION = {
  title: 'New sign-in code',
  body: 'Open Tachyon to see it.',
  tag: 'two-factor-token',
} as const;

/** What the worker tells the device app's open pages when a push arrives (they refresh their inbox). */
export const PUSH_ARRIVED_MESSAGE = { type: 'push' } as const;

/*
 * The parts of a service worker's global scope this worker uses, under lib.webworker's names. They are declared here
 * because the project's one tsconfig has the DOM's types, whose globals conflict with lib.webworker's.
 */
export interface WorkerEvent {
  waitUntil(promise: Promise<unknown>): void;
}
export interface WorkerPushEvent extends WorkerEvent {
  readonly data: { json(): unknown } | null;
}
export interface WorkerNotificationEvent extends WorkerEvent {
  readonly notification: { readonly data: unknown; close(): void };
}
export interface WorkerWindowClient {
  readonly url: string;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}
export interface ShownNotificationOptions {
  body: string;
  tag: string;
  renotify: boolean;
  requireInteraction: boolean;
  icon: string;
  badge: string;
  data: { navigate: string };
}
export interface DeviceWorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: { showNotification(title: string, options: ShownNotificationOptions): Promise<void> };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WorkerWindowClient[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: WorkerEvent) => void): void;
  addEventListener(type: 'push', listener: (event: WorkerPushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: WorkerNotificationEvent) => void): void;
}

/** The service's payload, parsed with the contract's schema; null when absent or not what the service sends. */
export function readPayload(data: WorkerPushEvent['data']): WebPushPayload | null {
  if (!data) return null;
  try {
    const parsed = WebPushPayload.safeParse(data.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The notification a push shows. */
export function notificationFor(payload: WebPushPayload | null): { title: string; options: ShownNotificationOptions } {
  const notification = payload?.notification;
  return {
    title: notification?.title ?? FALLBACK_NOTIFICATION.title,
    options: {
      body: notification?.body ?? FALLBACK_NOTIFICATION.body,
      // One notification per code slot: a newer code replaces one not yet looked at.
      tag: notification?.tag ?? FALLBACK_NOTIFICATION.tag,
      renotify: true,
      requireInteraction: false,
      icon: ICON,
      badge: ICON,
      data: { navigate: notification?.navigate ?? DEVICE_APP_PATH },
    },
  };
}

/** Only pages of the device app on this origin: a payload must not send the person anywhere else. */
export function appUrl(navigate: unknown, origin: string): string {
  try {
    const url = new URL(String(navigate), origin);
    if (url.origin === origin && url.pathname.startsWith(DEVICE_APP_PATH)) return url.href;
  } catch {
    // not a URL
  }
  return new URL(DEVICE_APP_PATH, origin).href;
}

function navigateOf(data: unknown): unknown {
  return data && typeof data === 'object' && 'navigate' in data ? data.navigate : DEVICE_APP_PATH;
}

export function installDeviceWorker(scope: DeviceWorkerScope): void {
  scope.addEventListener('install', () => {
    // Nothing to cache: a new version takes over at once.
    void scope.skipWaiting();
  });

  scope.addEventListener('activate', (event) => {
    event.waitUntil(scope.clients.claim());
  });

  scope.addEventListener('push', (event) => {
    const { title, options } = notificationFor(readPayload(event.data));
    event.waitUntil(
      Promise.all([
        scope.registration.showNotification(title, options),
        // An open device app refreshes its inbox now instead of at its next poll or stream event.
        scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
          for (const client of clients) client.postMessage(PUSH_ARRIVED_MESSAGE);
        }),
      ]),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const target = appUrl(navigateOf(event.notification.data), scope.location.origin);
    event.waitUntil(
      scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
        const open = clients.find((client) => new URL(client.url).pathname.startsWith(DEVICE_APP_PATH));
        if (open) return open.focus();
        return scope.clients.openWindow(target);
      }),
    );
  });
}
