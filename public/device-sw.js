// The device app's service worker (scope /device). It shows each two-factor push at once from its payload, with no
// request first: a phone may be offline by the time it would ask, and the payload already says everything. The
// notification's title and body never hold the code (phones show notifications on the lock screen); the code shows
// when the person opens the app. A click opens (or focuses) the device app.

const APP_URL = '/device';
const ICON = '/device-icon-192.png';

/** The service's payload: a declarative push message (RFC 8030 `web_push`) with the token beside it. */
function readPayload(data) {
  if (!data) return null;
  try {
    const payload = data.json();
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

self.addEventListener('install', () => {
  // Nothing to cache: a new version takes over at once.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const notification = payload?.notification ?? {};
  const title = typeof notification.title === 'string' && notification.title ? notification.title : 'New sign-in code';
  const options = {
    body: typeof notification.body === 'string' ? notification.body : 'Open Tachyon to see it.',
    // One notification per code slot: a newer code replaces one not yet looked at.
    tag: typeof notification.tag === 'string' && notification.tag ? notification.tag : 'two-factor-token',
    renotify: true,
    requireInteraction: false,
    icon: ICON,
    badge: ICON,
    data: {
      navigate: typeof notification.navigate === 'string' ? notification.navigate : APP_URL,
      instructionId: payload?.InstructionId ?? null,
    },
  };
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(title, options),
      // An open device app refreshes its inbox now instead of at its next poll or stream event.
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
        for (const client of clients) client.postMessage({ type: payload?.Type ?? 'push' });
      }),
    ]),
  );
});

/** Only pages of the device app on this origin: a payload must not send the person anywhere else. */
function appUrl(navigate) {
  try {
    const url = new URL(navigate, self.location.origin);
    if (url.origin === self.location.origin && url.pathname.startsWith(APP_URL)) return url.href;
  } catch {
    // not a URL
  }
  return new URL(APP_URL, self.location.origin).href;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = appUrl(event.notification.data?.navigate ?? APP_URL);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      const open = clients.find((client) => new URL(client.url).pathname.startsWith(APP_URL));
      if (open) return open.focus();
      return self.clients.openWindow(target);
    }),
  );
});
