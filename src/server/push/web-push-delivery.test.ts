import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { DevicePushList, Instruction, PushKey, TokenAccepted, WebPushPayload } from '../../shared/contract/index.ts';
import { decide, deviceCall, deviceStateOf, enrollDevice } from '../test/device-helpers.ts';
import { createTestApp, parseBody, type TestApp } from '../test/harness.ts';
import { type PushReceiver, startPushReceiver } from '../test/push-receiver.ts';

const ADMIN = ['ACME\\admin', 'Quiet lantern harbour 42'] as const;
const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;
const EVE = ['ACME\\eve', 'Eve keeps a long passphrase too'] as const;
const SUBJECT = 'mailto:security@acme.example';

/** A live stream's raw text as it arrives: what must never be on it is looked for in every byte, not in parsed events. */
async function rawStream(url: string, authorization: string) {
  const response = await fetch(url, { headers: { authorization } });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream');
  const decoder = new TextDecoder();
  let text = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return {
    text: () => text,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await reading;
    },
  };
}

/**
 * The service as it runs, not a recording sender: demo mode off, the production Web Push sender, and a push service
 * on 127.0.0.1 (listed in PUSH_ALLOW_ORIGINS) that checks the VAPID signature and decrypts with code of its own.
 */
describe('Web Push from a real deployment', () => {
  let receiver: PushReceiver | null = null;
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    await receiver?.close();
    t = null;
    receiver = null;
  });

  it('delivers the code of a new instruction to the Active device, which submits it to #3; no push nor other stream carries it', async () => {
    const keys = webpush.generateVAPIDKeys();
    receiver = await startPushReceiver({ publicKey: keys.publicKey, subject: SUBJECT });
    t = await createTestApp(
      {
        demo: false,
        adminUserName: ADMIN[0],
        adminPassword: ADMIN[1],
        vapidPublicKey: keys.publicKey,
        vapidPrivateKey: keys.privateKey,
        vapidSubject: SUBJECT,
        pushAllowOrigins: [receiver.origin],
        publicUrl: 'https://tachyon.acme.example',
      },
      { pushSender: 'production' },
    );
    await t.addPrincipal(DANA[0], DANA[1], []);
    await t.addPrincipal(EVE[0], EVE[1], []);
    const admin = await t.login(...ADMIN);
    const dana = await t.login(...DANA);

    const key = parseBody(await t.call({ method: 'GET', url: '/api/Device/PushKey', token: dana }), PushKey);
    expect(key).toMatchObject({ PublicKey: keys.publicKey, WebPushEnabled: true });

    const enrolled = await enrollDevice(t, { token: dana });
    await decide(t, admin, enrolled);
    const subscription = receiver.subscribe();
    const stored = await deviceCall(t, enrolled.DeviceToken, {
      method: 'PUT',
      url: '/api/Device/PushSubscription',
      payload: {
        endpoint: subscription.endpoint,
        expirationTime: null,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      },
    });
    expect(stored.statusCode, stored.body).toBe(204);

    // Listening while the code lives: the dashboard's change stream, Dana's phone's own stream, and another person's
    // Active device's stream.
    const eve = await enrollDevice(t, { token: await t.login(...EVE) });
    await decide(t, admin, eve);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
    const streams = {
      dashboard: await rawStream(`${base}/Consumer/Events`, `Bearer ${admin}`),
      phone: await rawStream(`${base}/Device/Events`, `Device ${enrolled.DeviceToken}`),
      otherPerson: await rawStream(`${base}/Device/Events`, `Device ${eve.DeviceToken}`),
    };

    const created = await t.call({
      method: 'POST',
      url: '/api/Instructions',
      token: dana,
      payload: { Name: 'Restart the print spooler' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const instruction = parseBody(created, Instruction);
    expect(instruction.DevicesNotified).toBe(1);

    await expect.poll(() => receiver?.pushesTo(subscription.endpoint).length, { timeout: 5_000 }).toBe(1);
    const [push] = receiver.pushesTo(subscription.endpoint);
    expect(push?.vapid).toMatchObject({ ok: true });
    expect(push?.headers.urgency).toBe('high');
    expect(Number(push?.headers.ttl)).toBeGreaterThan(590);
    const message = WebPushPayload.parse(JSON.parse(push?.payload ?? 'null'));
    expect(message.notification).toMatchObject({
      title: 'Sign-in code for Restart the print spooler',
      navigate: 'https://tachyon.acme.example/device',
      tag: `instruction-${instruction.Id}`,
    });

    // The push says a code arrived; the phone, opened, reads it from its inbox, and the code is not in the push.
    const inbox = await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' });
    const [pushed] = parseBody(inbox, DevicePushList);
    expect(pushed).toMatchObject({ InstructionId: instruction.Id, Name: 'Restart the print spooler' });
    const code = pushed?.Token ?? '';
    expect(code).not.toBe('');
    expect(push?.payload).not.toContain(code);

    const accepted = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/Instruction/Token',
      token: dana,
      payload: { Id: instruction.Id, Token: code },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(parseBody(accepted, TokenAccepted)).toMatchObject({ Id: instruction.Id, Authenticated: true });

    // A last change every stream hears, so each has sent all it was going to: Eve's device Disabled.
    const { PushMessageUserId } = await deviceStateOf(t, eve.DeviceToken);
    const disabled = await t.call({
      method: 'PUT',
      url: '/api/Consumer/PushMessageUsers',
      token: admin,
      payload: { Id: PushMessageUserId, Status: 2 },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await expect.poll(() => streams.phone.text(), { timeout: 5_000 }).toContain('"token-ended"');
    await expect.poll(() => streams.dashboard.text(), { timeout: 5_000 }).toContain('"push-user"');
    await expect.poll(() => streams.otherPerson.text(), { timeout: 5_000 }).toContain('"PushMessageUserStatus":2');
    for (const stream of Object.values(streams)) await stream.close();
    // The phone's stream is its inbox, live: the one stream that shows the code, to its owner.
    expect(streams.phone.text()).toContain(`"Token":"${code}"`);
    expect(streams.dashboard.text()).not.toContain(code);
    expect(streams.otherPerson.text()).not.toContain(code);
  });
});
