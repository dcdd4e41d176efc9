import { describe, expect, it, vi } from 'vitest';
import type { WebPushPayload } from '../../../shared/contract/index.ts';
import {
  type DeviceWorkerScope,
  FALLBACK_NOTIFICATION,
  installDeviceWorker,
  PUSH_ARRIVED_MESSAGE,
  type WorkerEvent,
  type WorkerWindowClient,
} from './device-worker.ts';

const ORIGIN = 'https://tachyon.example.com';

const payload: WebPushPayload = {
  web_push: 8030,
  notification: {
    title: 'Sign-in code for Payroll export',
    body: 'valid until 10:42 UTC',
    navigate: `${ORIGIN}/device`,
    tag: 'instruction-42',
  },
};

/** A service worker's scope with a fake registration and windows; its listeners are called as the browser would. */
function fakeScope(windows: WorkerWindowClient[] = []) {
  const listeners = new Map<string, (event: never) => void>();
  const waits: Promise<unknown>[] = [];
  const showNotification = vi.fn(async () => undefined);
  const openWindow = vi.fn(async () => null);
  const scope: DeviceWorkerScope = {
    location: { origin: ORIGIN },
    registration: { showNotification },
    clients: { matchAll: async () => windows, openWindow, claim: async () => undefined },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, listener: (event: never) => void) => listeners.set(type, listener),
  };
  installDeviceWorker(scope);
  const event = <T extends object>(fields: T): T & WorkerEvent => ({
    ...fields,
    waitUntil: (promise: Promise<unknown>) => waits.push(promise),
  });
  async function dispatch(type: string, fields: object) {
    const listener = listeners.get(type);
    if (!listener) throw new Error(`no ${type} listener`);
    listener(event(fields) as never);
    await Promise.all(waits.splice(0));
  }
  return {
    showNotification,
    openWindow,
    push: (data: unknown) => dispatch('push', { data: { json: () => data } }),
    pushText: (text: string) => dispatch('push', { data: { json: () => JSON.parse(text) } }),
    click: (data: unknown) => dispatch('notificationclick', { notification: { data, close: vi.fn() } }),
  };
}

function window(url: string) {
  return { url, focus: vi.fn(async () => undefined), postMessage: vi.fn((_message: unknown) => undefined) };
}

describe('the device app’s service worker', () => {
  it('shows the notification a parsed payload describes, and tells the open app a push arrived', async () => {
    const app = window(`${ORIGIN}/device`);
    const worker = fakeScope([app]);

    await worker.push(payload);

    expect(worker.showNotification).toHaveBeenCalledWith('Sign-in code for Payroll export', {
      body: 'valid until 10:42 UTC',
      tag: 'instruction-42',
      renotify: true,
      requireInteraction: false,
      icon: '/device-icon-192.png',
      badge: '/device-icon-192.png',
      data: { navigate: `${ORIGIN}/device` },
    });
    expect(app.postMessage).toHaveBeenCalledWith(PUSH_ARRIVED_MESSAGE);
  });

  it('shows a plain prompt, never the payload’s text, when the payload is not the contract’s', async () => {
    const worker = fakeScope();
    const withCode = {
      ...payload,
      notification: { ...payload.notification, title: 'Your code is 482913' },
      Token: '482913',
    };

    await worker.push(withCode);
    await worker.pushText('not json');
    await worker.push({ notification: { title: 'no web_push' } });

    for (const [title, options] of worker.showNotification.mock.calls as unknown as [string, { body: string }][]) {
      expect(title).toBe(FALLBACK_NOTIFICATION.title);
      expect(options.body).toBe(FALLBACK_NOTIFICATION.body);
    }
    expect(worker.showNotification).toHaveBeenCalledTimes(3);
  });

  it('a tap focuses the open device app, or opens it; never a page outside it', async () => {
    const open = window(`${ORIGIN}/device`);
    const focused = fakeScope([window(`${ORIGIN}/`), open]);
    await focused.click({ navigate: `${ORIGIN}/device` });
    expect(open.focus).toHaveBeenCalled();
    expect(focused.openWindow).not.toHaveBeenCalled();

    const closed = fakeScope([]);
    await closed.click({ navigate: 'https://evil.example/device' });
    await closed.click({ navigate: `${ORIGIN}/settings` });
    await closed.click({ navigate: `${ORIGIN}/device?from=push` });
    expect(closed.openWindow.mock.calls).toEqual([
      [`${ORIGIN}/device`],
      [`${ORIGIN}/device`],
      [`${ORIGIN}/device?from=push`],
    ]);
  });
});
