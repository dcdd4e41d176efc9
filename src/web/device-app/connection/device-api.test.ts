import { describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../shared/contract/index.ts';
import { createApiClient } from '../../api/core/client.ts';
import { json, problem, scriptedFetch } from '../../test/render.tsx';
import { createDeviceApi } from './device-api.ts';

function header(init: RequestInit, name: string): string | null {
  return new Headers(init.headers).get(name);
}

describe('device credential', () => {
  const state = {
    AuthorizationRequestId: 9,
    RequestStatus: 'Pending',
    Comment: null,
    PushMessageUserId: null,
    PushMessageUserStatus: null,
    UserName: 'DEMO\\operator',
    DeviceType: 'Android',
    PushEndpoint: null,
  };

  function deviceSetup(answers: Parameters<typeof scriptedFetch>, token: string | null) {
    const scripted = scriptedFetch(...answers);
    const onUnauthorized = vi.fn();
    const client = createApiClient({
      baseUrl: () => '/api',
      apiVersion: () => '3.3',
      token: () => token,
      deviceToken: () => 'device-secret',
      consumerName: () => 'Device',
      fetch: scripted.fetch,
      onUnauthorized,
    });
    return { api: createDeviceApi(client), calls: scripted.calls, onUnauthorized };
  }

  it('signs device calls with "Authorization: Device", never with a session token', async () => {
    const { api, calls } = deviceSetup([json(state)], 'session-token');
    await api.device();
    const init = calls[0]?.init ?? {};
    expect(calls[0]?.url).toBe('/api/Device');
    expect(header(init, 'Authorization')).toBe('Device device-secret');
    expect(header(init, 'X-Tachyon-Authenticate')).toBeNull();
  });

  it('enrols with the sign-in session when there is one, and with no credentials from a link', async () => {
    const enrolled = { AuthorizationRequestId: 9, RequestGuid: 'g', DeviceToken: 'new' };
    const signedIn = deviceSetup([json(enrolled, { status: 201 })], 'session-token');
    await signedIn.api.enroll({ DeviceType: 'Android' });
    expect(header(signedIn.calls[0]?.init ?? {}, 'Authorization')).toBe('Bearer session-token');

    const fromLink = deviceSetup([json(enrolled, { status: 201 })], null);
    await fromLink.api.enroll({ DeviceType: 'Android', EnrollmentCode: 'abc' });
    expect(header(fromLink.calls[0]?.init ?? {}, 'Authorization')).toBeNull();
    expect(JSON.parse(String(fromLink.calls[0]?.init.body))).toEqual({ DeviceType: 'Android', EnrollmentCode: 'abc' });
  });

  it('asks for the VAPID key with the device credential when no one is signed in', async () => {
    const { api, calls } = deviceSetup([json({ PublicKey: 'k', WebPushEnabled: true, Reason: null })], null);
    await api.pushKey();
    expect(header(calls[0]?.init ?? {}, 'Authorization')).toBe('Device device-secret');
  });

  it('reports an ended credential (401) with the endpoint that was refused', async () => {
    const { api, onUnauthorized } = deviceSetup([problem('device-ended', 401, 'This device was removed.')], null);
    await expect(api.device()).rejects.toMatchObject({ kind: 'device-ended' });
    expect(onUnauthorized).toHaveBeenCalledWith(expect.objectContaining({ kind: 'device-ended' }), endpoints.getDevice);
  });
});
