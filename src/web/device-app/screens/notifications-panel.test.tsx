import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceState } from '../../../shared/contract/index.ts';
import { json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { NotificationsPanel } from './notifications-panel.tsx';

const CREDENTIAL = { token: 'device-secret', authorizationRequestId: 12 };
// A real P-256 point's shape: 65 bytes, 0x04 first; and a 16-byte secret.
const P256DH = `BA${'A'.repeat(85)}`;
const AUTH = 'A'.repeat(22);
const KEY = 'BNbxGYNMhEIi9zrneh7mqV4EuSmfG_4dFhk6ziThEQ5rsgQ4KRk2u6nvBRtbsmyEGamtGhKq6dI5fmyyuNv9mmY';
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/abc';

const device: DeviceState = {
  AuthorizationRequestId: 12,
  RequestStatus: 'Authorized',
  Comment: null,
  PushMessageUserId: 7,
  PushMessageUserStatus: 1,
  UserName: 'ACME\\dana',
  DeviceType: 'Android',
  PushEndpoint: null,
};

/** A browser with service workers, PushManager and notifications; `existing` is its current subscription. */
function pushBrowser({ existing = null, permission = 'default' }: { existing?: string | null; permission?: string }) {
  const subscription = (endpoint: string) => ({
    endpoint,
    unsubscribe: vi.fn(async () => true),
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }),
  });
  const pushManager = {
    getSubscription: vi.fn(async () => (existing ? subscription(existing) : null)),
    subscribe: vi.fn(async () => subscription(ENDPOINT)),
  };
  const registration = { pushManager };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: vi.fn(async () => registration), ready: Promise.resolve(registration) },
  });
  const requestPermission = vi.fn(async () => 'granted');
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission, requestPermission });
  return { pushManager, requestPermission };
}

function renderPanel(state: DeviceState = device) {
  localStorage.setItem('tachyon.device', JSON.stringify(CREDENTIAL));
  return renderWithProviders(<NotificationsPanel credential={CREDENTIAL} device={state} />);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('NotificationsPanel', () => {
  it('asks for permission and subscribes only when tapped, with the service key, then sends the subscription', async () => {
    const { pushManager, requestPermission } = pushBrowser({});
    const routes = routedFetch({
      'GET /api/Device/PushKey': json({ PublicKey: KEY, WebPushEnabled: true, Reason: null }),
      'PUT /api/Device/PushSubscription': new Response(null, { status: 204 }),
      'GET /api/Device': json({ ...device, PushEndpoint: ENDPOINT }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderPanel();

    const button = await screen.findByRole('button', { name: 'Turn on notifications' });
    expect(requestPermission).not.toHaveBeenCalled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    await user.click(button);

    await waitFor(() => expect(routes.called('PUT /api/Device/PushSubscription')).toHaveLength(1));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    const [options] = pushManager.subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options.userVisibleOnly).toBe(true);
    expect((options.applicationServerKey as Uint8Array).length).toBe(65);
    expect(JSON.parse(String(routes.called('PUT /api/Device/PushSubscription')[0]?.init.body))).toEqual({
      endpoint: ENDPOINT,
      expirationTime: null,
      keys: { p256dh: P256DH, auth: AUTH },
    });
    expect(new Headers(routes.called('PUT /api/Device/PushSubscription')[0]?.init.headers).get('Authorization')).toBe(
      'Device device-secret',
    );
  });

  it("offers to turn them on again when the browser's subscription is not the one the service holds", async () => {
    pushBrowser({ existing: 'https://fcm.googleapis.com/fcm/send/renewed', permission: 'granted' });
    vi.stubGlobal(
      'fetch',
      routedFetch({ 'GET /api/Device/PushKey': json({ PublicKey: KEY, WebPushEnabled: true, Reason: null }) }).fetch,
    );
    renderPanel({ ...device, PushEndpoint: ENDPOINT });
    expect(await screen.findByRole('button', { name: 'Turn notifications on again' })).toBeInTheDocument();
    expect(screen.getByText(/Notifications stopped working on this phone/)).toBeInTheDocument();
  });

  it('says notifications are on when both agree, and can turn them off', async () => {
    pushBrowser({ existing: ENDPOINT, permission: 'granted' });
    const routes = routedFetch({
      'GET /api/Device/PushKey': json({ PublicKey: KEY, WebPushEnabled: true, Reason: null }),
      'DELETE /api/Device/PushSubscription': new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderPanel({ ...device, PushEndpoint: ENDPOINT });
    expect(await screen.findByText(/Notifications are on/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn off notifications' }));
    await waitFor(() => expect(screen.queryByText(/Notifications are on/)).not.toBeInTheDocument());
    expect(routes.called('DELETE /api/Device/PushSubscription')).toHaveLength(1);
  });

  it("says when the service sends no Web Push (codes still reach the inbox) in the person's words, with no switch", async () => {
    pushBrowser({});
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'GET /api/Device/PushKey': json({
          PublicKey: KEY,
          WebPushEnabled: false,
          Reason: 'VAPID_SUBJECT is not set. Codes still reach the device app while it is open.',
        }),
      }).fetch,
    );
    renderPanel();
    expect(await screen.findByText('Notifications are off on this service')).toBeInTheDocument();
    expect(screen.getByText(/Codes still arrive on this page/)).toBeInTheDocument();
    // The service's reason names its configuration: words for its operator, not for the person with the phone.
    expect(screen.queryByText(/VAPID_SUBJECT/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Turn on/ })).not.toBeInTheDocument();
  });

  it('explains blocked notifications instead of asking again', async () => {
    pushBrowser({ permission: 'denied' });
    vi.stubGlobal(
      'fetch',
      routedFetch({ 'GET /api/Device/PushKey': json({ PublicKey: KEY, WebPushEnabled: true, Reason: null }) }).fetch,
    );
    renderPanel();
    expect(await screen.findByText('Notifications are blocked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Turn on/ })).not.toBeInTheDocument();
  });

  it('on an iPhone outside a Home Screen web app, explains Add to Home Screen instead of a switch', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    );
    const routes = routedFetch({});
    vi.stubGlobal('fetch', routes.fetch);
    renderPanel();
    expect(screen.getByText(/Choose “Add to Home Screen”/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Turn on/ })).not.toBeInTheDocument();
    // Nothing to ask the service: no key is needed for a switch that is not there.
    expect(routes.calls).toHaveLength(0);
  });
});
