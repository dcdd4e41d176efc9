import { createECDH, randomBytes } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import webPush from 'web-push';
import { WebPushPayload } from '../../shared/contract/index.ts';
import type { PushSubscriptionKeys, TokenPushMessage, TokenPushTarget } from '../domain/delivery/token-delivery.ts';
import type { Clock } from '../lib/clock.ts';
import { decryptAes128gcm, type PushReceiver, startPushReceiver, verifyVapid } from '../test/push-receiver.ts';
import {
  MAX_PAYLOAD_BYTES,
  PUSH_METRIC_NAME,
  type PushLog,
  retryAfterMs,
  WebPushSender,
  type WebPushSenderOptions,
} from './web-push-sender.ts';

const vapidKeys = webPush.generateVAPIDKeys();
const vapid = { ...vapidKeys, subject: 'mailto:security@example.com' };
const DEVICE_APP_URL = 'https://tachyon.example.com/device';

interface LogLine {
  level: 'info' | 'warn' | 'error';
  details: Record<string, unknown>;
  message: string;
}

let receiver: PushReceiver;
const senders: WebPushSender[] = [];

beforeEach(async () => {
  receiver = await startPushReceiver({ publicKey: vapid.publicKey, subject: vapid.subject });
});

afterEach(async () => {
  for (const sender of senders.splice(0)) sender.close();
  await receiver.close();
});

function setup(options: Partial<WebPushSenderOptions> = {}) {
  const lines: LogLine[] = [];
  const log: PushLog = {
    info: (details, message) => lines.push({ level: 'info', details: { ...details }, message }),
    warn: (details, message) => lines.push({ level: 'warn', details: { ...details }, message }),
    error: (details, message) => lines.push({ level: 'error', details: { ...details }, message }),
  };
  const gone: Array<{ deviceId: number; endpoint: string }> = [];
  const checked: string[] = [];
  const registry = new Registry();
  const sender = new WebPushSender({
    vapid,
    deviceAppUrl: DEVICE_APP_URL,
    // As PUSH_ALLOW_ORIGINS would: only the receiver's origin.
    checkEndpoint: async (endpoint) => {
      checked.push(endpoint);
      return new URL(endpoint).origin === receiver.origin
        ? { refusal: null, addresses: null }
        : { refusal: 'not an allowed push service' };
    },
    onGone: async (deviceId, endpoint) => {
      gone.push({ deviceId, endpoint });
    },
    log,
    registry,
    timeZone: 'UTC',
    ...options,
  });
  senders.push(sender);
  return { sender, lines, gone, checked, registry };
}

function message(overrides: Partial<TokenPushMessage> = {}): TokenPushMessage {
  return {
    instructionId: 42,
    name: 'Payroll export',
    scheduled: false,
    expires: new Date(Date.now() + 10 * 60_000),
    ...overrides,
  };
}

const target = (deviceId: number, subscription: PushSubscriptionKeys): TokenPushTarget => ({ deviceId, subscription });

async function counts(registry: Registry): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(PUSH_METRIC_NAME);
  if (!metric) return {};
  const { values } = await metric.get();
  return Object.fromEntries(values.map((value) => [`${value.labels.host} ${value.labels.outcome}`, value.value]));
}

describe('WebPushSender: what reaches the push service', () => {
  it('sends a push whose VAPID JWT verifies and whose body decrypts to the declarative message', async () => {
    const now = new Date('2030-05-06T10:32:15.250Z');
    const clock: Clock = () => now;
    const { sender } = setup({ clock });
    const subscription = receiver.subscribe();
    const expires = new Date(now.getTime() + 10 * 60_000);

    const [result] = await sender.sendNow([target(7, subscription)], message({ expires }));

    expect(result).toEqual({
      deviceId: 7,
      host: new URL(receiver.origin).host,
      outcome: 'accepted',
      status: 201,
      attempts: 1,
    });
    const [push] = receiver.pushesTo(subscription.endpoint);
    if (!push) throw new Error('no push arrived');
    expect(push.vapid).toMatchObject({ ok: true, claims: { aud: receiver.origin, sub: vapid.subject } });
    expect(push.decryptError).toBeNull();
    expect(JSON.parse(push.payload ?? 'null')).toStrictEqual({
      web_push: 8030,
      notification: {
        title: 'Sign-in code for Payroll export',
        body: 'valid until 10:42 UTC',
        navigate: DEVICE_APP_URL,
        tag: 'instruction-42',
      },
    });
    // The token's remaining life by the service's clock, never the library's four weeks.
    expect(push.headers.ttl).toBe('600');
    expect(push.headers.urgency).toBe('high');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it('sends a notice of a new device in plain words, for a day, on a topic of its own', async () => {
    const now = new Date('2030-05-06T10:32:15.250Z');
    const { sender } = setup({ clock: () => now });
    const subscription = receiver.subscribe();
    const notice = {
      kind: 'enrolled' as const,
      authorizationRequestId: 9,
      device: 'Samsung Galaxy S24 (Android 15), Android\u202e',
      at: now,
    };

    const [result] = await sender.sendNoticeNow([target(7, subscription)], notice);

    expect(result?.outcome).toBe('accepted');
    const [push] = receiver.pushesTo(subscription.endpoint);
    if (!push) throw new Error('no push arrived');
    expect(push.decryptError).toBeNull();
    expect(JSON.parse(push.payload ?? 'null')).toStrictEqual({
      web_push: 8030,
      notification: {
        title: 'A new device was added for you',
        body: 'Samsung Galaxy S24 (Android 15), Android, at 10:32 UTC. Not you? Open Tachyon and tap "This wasn\'t me".',
        navigate: DEVICE_APP_URL,
        tag: 'device-notice-9',
      },
    });
    expect(push.headers.ttl).toBe(String(24 * 3600));
    // Not the code's topic: a notice never replaces a code still waiting on the phone.
    expect(push.headers.topic).not.toBe(sender.topicFor(7));
    // The worker's schema, strict: a notice carries nothing it does not read.
    const long = WebPushPayload.parse(
      JSON.parse(sender.noticePayload({ ...notice, kind: 'approved', device: 'x'.repeat(5000) })),
    );
    expect(long.notification.title).toBe('A new device was approved for you');
    expect(long.notification.body).toMatch(/^x{120}…, at /);
  });

  it('sends a notice of a temporary code: who issued it and until when, never the code, on a topic of its own', async () => {
    const now = new Date('2030-05-06T10:32:15.250Z');
    const { sender } = setup({ clock: () => now });
    const subscription = receiver.subscribe();
    const notice = {
      kind: 'temporary-code' as const,
      temporaryCodeId: 5,
      issuedBy: 'ACME\\helpdesk\u202e',
      validUntil: new Date('2030-05-06T11:32:15.250Z'),
      at: now,
    };

    const [result] = await sender.sendNoticeNow([target(7, subscription)], notice);

    expect(result?.outcome).toBe('accepted');
    const [push] = receiver.pushesTo(subscription.endpoint);
    if (!push) throw new Error('no push arrived');
    // The worker's schema, strict: nothing it does not read.
    expect(WebPushPayload.parse(JSON.parse(push.payload ?? 'null'))).toStrictEqual({
      web_push: 8030,
      notification: {
        title: 'A temporary code was issued for you',
        body: 'By ACME\\helpdesk at 10:32 UTC, valid until 11:32 UTC. Not you who asked? Call your helpdesk.',
        navigate: DEVICE_APP_URL,
        tag: 'temporary-code-notice-5',
      },
    });
    expect(push.headers.ttl).toBe(String(24 * 3600));
    expect(push.headers.topic).not.toBe(sender.topicFor(7));
    expect(push.headers.topic).not.toBe(sender.topicFor(5, 'device notice'));
  });

  it('gives TTL as the remaining life by the real clock too, and the JWT expires within 24 hours', async () => {
    const { sender } = setup();
    const subscription = receiver.subscribe();
    sender.send([target(1, subscription)], message({ expires: new Date(Date.now() + 10 * 60_000) }));
    await sender.idle();

    const [push] = receiver.pushesTo(subscription.endpoint);
    const ttl = Number(push?.headers.ttl);
    expect(ttl).toBeGreaterThanOrEqual(597);
    expect(ttl).toBeLessThanOrEqual(600);
    if (!push?.vapid.ok) throw new Error(`VAPID check failed: ${JSON.stringify(push?.vapid)}`);
    const exp = push.vapid.claims.exp ?? 0;
    expect(exp).toBeGreaterThan(Date.now() / 1000);
    expect(exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 60 * 60);
  });

  it('keeps one Topic per device: the same for each code to a device, another for another device', async () => {
    const { sender } = setup();
    const first = receiver.subscribe();
    const other = receiver.subscribe();
    await sender.sendNow([target(7, first), target(8, other)], message());
    await sender.sendNow([target(7, first)], message({ instructionId: 43 }));

    const [a, b] = receiver.pushesTo(first.endpoint).map((push) => push.headers.topic);
    const [c] = receiver.pushesTo(other.endpoint).map((push) => push.headers.topic);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(c).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(c).not.toBe(a);
    // Keyed by the VAPID key: a push service cannot read the service's device ids from it.
    const otherKeys = webPush.generateVAPIDKeys();
    const { sender: another } = setup({ vapid: { ...otherKeys, subject: vapid.subject } });
    expect(another.topicFor(7)).not.toBe(a);
    expect(sender.topicFor(7)).toBe(a);
  });

  it('cuts a very long name so the message stays within 3,993 bytes', async () => {
    const { sender } = setup();
    const subscription = receiver.subscribe();
    const results = await sender.sendNow(
      [target(1, subscription)],
      message({ name: `${'Quarterly report '.repeat(400)}end` }),
    );

    expect(results[0]?.outcome).toBe('accepted');
    const text = receiver.pushesTo(subscription.endpoint)[0]?.payload ?? '';
    const bytes = Buffer.byteLength(text, 'utf8');
    expect(bytes).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    // The longest cut that fits, not an arbitrary one.
    expect(bytes).toBeGreaterThan(MAX_PAYLOAD_BYTES - 4);
    const payload = JSON.parse(text);
    expect(payload.notification.title).toMatch(/^Sign-in code for Quarterly report .*…$/);
  });

  it('cuts multi-byte names at a character boundary', async () => {
    const { sender } = setup();
    const subscription = receiver.subscribe();
    await sender.sendNow([target(1, subscription)], message({ name: '👩‍💻é'.repeat(2000) }));

    const text = receiver.pushesTo(subscription.endpoint)[0]?.payload ?? '';
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const title: string = JSON.parse(text).notification.title;
    expect(title).toMatch(/^Sign-in code for (👩‍💻é)+…$/u);
  });

  it('takes control and bidirectional characters out of the visible title', async () => {
    const { sender } = setup();
    const subscription = receiver.subscribe();
    await sender.sendNow([target(1, subscription)], message({ name: 'Pay\u202eroll\u0007\n export' }));

    const payload = JSON.parse(receiver.pushesTo(subscription.endpoint)[0]?.payload ?? 'null');
    expect(payload.notification.title).toBe('Sign-in code for Pay roll export');
  });
});

describe('WebPushSender: acting on the push service’s answer', () => {
  it.each([404, 410])('%i removes that subscription only; another in the same send is delivered', async (status) => {
    const { sender, gone, registry } = setup();
    const dead = receiver.subscribe();
    const alive = receiver.subscribe();
    receiver.answer(dead.endpoint, { status });

    const results = await sender.sendNow([target(1, dead), target(2, alive)], message());

    expect(gone).toEqual([{ deviceId: 1, endpoint: dead.endpoint }]);
    expect(results.map((result) => [result.deviceId, result.outcome])).toEqual([
      [1, 'gone'],
      [2, 'accepted'],
    ]);
    expect(receiver.pushesTo(alive.endpoint)).toHaveLength(1);
    const host = new URL(receiver.origin).host;
    expect(await counts(registry)).toEqual({ [`${host} gone`]: 1, [`${host} accepted`]: 1 });
  });

  it('413 is logged as an error (a defect) and removes nothing', async () => {
    const { sender, gone, lines } = setup();
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status: 413 });

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result?.outcome).toBe('too-large');
    expect(gone).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringContaining('too large') }),
    );
  });

  it.each([400, 401, 403])('%i is a VAPID problem: logged loudly as an error, nothing removed', async (status) => {
    const { sender, gone, lines } = setup();
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status, body: 'BadJwtToken' });

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'vapid-rejected', status, attempts: 1 });
    expect(gone).toEqual([]);
    const line = lines.find((entry) => entry.level === 'error');
    expect(line?.message).toMatch(/VAPID/);
    expect(line?.details).toMatchObject({ status, answer: 'BadJwtToken', deviceId: 1 });
  });

  it('429 with Retry-After: 1 waits about a second, asks the policy again and delivers on the one retry', async () => {
    const { sender, checked } = setup();
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status: 429, headers: { 'Retry-After': '1' } });

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'accepted', status: 201, attempts: 2 });
    const [first, second] = receiver.pushesTo(subscription.endpoint);
    if (!first || !second) throw new Error('expected two pushes');
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
    expect(second.receivedAt - first.receivedAt).toBeLessThan(3000);
    // The same message, encrypted afresh, with the shorter remaining life.
    expect(first.payload).toContain('"tag":"instruction-42"');
    expect(second.payload).toBe(first.payload);
    expect(second.vapid.ok).toBe(true);
    expect(Number(second.headers.ttl)).toBeLessThan(Number(first.headers.ttl));
    expect(checked).toEqual([subscription.endpoint, subscription.endpoint]);
  });

  it('429 twice: retried once only', async () => {
    const { sender, lines, registry } = setup();
    const subscription = receiver.subscribe();
    const busy = { status: 429, headers: { 'Retry-After': '1' } };
    receiver.answer(subscription.endpoint, busy, busy);

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'rate-limited', status: 429, attempts: 2 });
    expect(receiver.pushesTo(subscription.endpoint)).toHaveLength(2);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(await counts(registry)).toEqual({ [`${new URL(receiver.origin).host} rate-limited`]: 2 });
  });

  it('429 asking to wait past the token’s expiry is not retried', async () => {
    const { sender, lines } = setup();
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status: 429, headers: { 'Retry-After': '3600' } });

    const started = performance.now();
    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ outcome: 'rate-limited', attempts: 1 });
    expect(receiver.pushesTo(subscription.endpoint)).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', details: expect.objectContaining({ status: 429 }) }),
    );
  });

  it('a pending retry is dropped when the sender closes, so shutting down does not wait for it', async () => {
    const { sender } = setup();
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status: 429, headers: { 'Retry-After': '30' } });

    sender.send([target(1, subscription)], message());
    await expect.poll(() => receiver.pushesTo(subscription.endpoint).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    sender.close();
    await sender.idle();

    expect(performance.now() - started).toBeLessThan(500);
    expect(receiver.pushesTo(subscription.endpoint)).toHaveLength(1);
  });

  it('a push service that never answers does not delay send(); the time-out ends the attempt', async () => {
    const { sender, lines, registry } = setup({ timeoutMs: 300 });
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, 'hang');

    const started = performance.now();
    sender.send([target(1, subscription)], message());
    expect(performance.now() - started).toBeLessThan(50);

    await sender.idle();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(receiver.pushesTo(subscription.endpoint)).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', details: expect.objectContaining({ timeoutMs: 300 }) }),
    );
    expect(await counts(registry)).toEqual({ [`${new URL(receiver.origin).host} timeout`]: 1 });
  });

  it('a push service that cannot be reached is logged and counted, not thrown', async () => {
    const { sender, lines, registry } = setup({ checkEndpoint: async () => ({ refusal: null, addresses: null }) });
    // Port 1 on loopback: nothing listens there, so the connection is refused.
    const subscription = { ...receiver.subscribe(), endpoint: 'http://127.0.0.1:1/push/x' };

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'network-error', status: null, attempts: 1 });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', details: expect.objectContaining({ code: 'ECONNREFUSED' }) }),
    );
    expect(await counts(registry)).toEqual({ '127.0.0.1:1 network-error': 1 });
  });
});

describe('WebPushSender: where it connects', () => {
  it('connects to the address the policy checked, never resolving the name again', async () => {
    const checked = receiver.subscribe();
    const port = new URL(receiver.origin).port;
    // A name no DNS answers (.invalid, RFC 6761): the push reaches the receiver only through the checked address.
    const endpoint = checked.endpoint.replace(receiver.origin, `http://push-service.invalid:${port}`);
    const { sender } = setup({ checkEndpoint: async () => ({ refusal: null, addresses: ['127.0.0.1'] }) });

    const [result] = await sender.sendNow([target(1, { ...checked, endpoint })], message());

    expect(result?.outcome).not.toBe('network-error');
    expect(result?.status).toEqual(expect.any(Number));
    expect(receiver.pushes).toHaveLength(1);
    expect(receiver.pushes[0]?.endpoint).toBe(checked.endpoint);
  });
});

describe('WebPushSender: metrics', () => {
  it('counts every outcome of one send by push service host', async () => {
    const { sender, registry } = setup();
    const ok = receiver.subscribe();
    const dead = receiver.subscribe();
    const denied = receiver.subscribe();
    receiver.answer(dead.endpoint, { status: 410 });
    receiver.answer(denied.endpoint, { status: 403 });
    const elsewhere = { ...receiver.subscribe(), endpoint: 'https://push.example.net/send/abc' };

    await sender.sendNow([target(1, ok), target(2, dead), target(3, denied), target(4, elsewhere)], message());
    await sender.sendNow([target(1, ok)], message({ instructionId: 43 }));

    const host = new URL(receiver.origin).host;
    expect(await counts(registry)).toEqual({
      [`${host} accepted`]: 2,
      [`${host} gone`]: 1,
      [`${host} vapid-rejected`]: 1,
      'push.example.net refused': 1,
    });
  });
});

describe('WebPushSender: what is not sent', () => {
  it('sends nothing to an endpoint the policy refuses right before sending', async () => {
    const { sender, lines, registry } = setup({
      checkEndpoint: async () => ({ refusal: 'resolves to a private address' }),
    });
    const subscription = receiver.subscribe();

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'refused', attempts: 0 });
    expect(receiver.pushes).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        details: expect.objectContaining({ reason: 'resolves to a private address' }),
      }),
    );
    expect(await counts(registry)).toEqual({ [`${new URL(receiver.origin).host} refused`]: 1 });
  });

  it('a policy that fails counts as a refusal', async () => {
    const { sender } = setup({
      checkEndpoint: async () => {
        throw new Error('DNS timed out');
      },
    });
    const subscription = receiver.subscribe();

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result?.outcome).toBe('refused');
    expect(receiver.pushes).toEqual([]);
  });

  it('sends nothing for a token that has expired (or has less than a second left)', async () => {
    const { sender, checked, registry } = setup();
    const subscription = receiver.subscribe();

    const results = await sender.sendNow([target(1, subscription)], message({ expires: new Date(Date.now() - 1000) }));
    const last = await sender.sendNow([target(1, subscription)], message({ expires: new Date(Date.now() + 500) }));

    expect([...results, ...last].map((result) => result.outcome)).toEqual(['expired', 'expired']);
    expect(receiver.pushes).toEqual([]);
    expect(checked).toEqual([]);
    expect(await counts(registry)).toEqual({ [`${new URL(receiver.origin).host} expired`]: 2 });
  });

  it('sends nothing when the message cannot fit even with the name cut away', async () => {
    // Only the name is cut: a device app's address past the limit leaves nothing that fits.
    const { sender, lines } = setup({ deviceAppUrl: `https://tachyon.example.com/device?${'x'.repeat(4000)}` });
    const subscription = receiver.subscribe();

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result).toMatchObject({ outcome: 'payload-too-large', attempts: 0 });
    expect(receiver.pushes).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error' }));
  });

  it('sends nothing to a subscription whose keys cannot be used, and logs it', async () => {
    const { sender, lines } = setup();
    const subscription = { ...receiver.subscribe(), p256dh: 'not-a-key' };

    const [result] = await sender.sendNow([target(1, subscription)], message());

    expect(result?.outcome).toBe('invalid-subscription');
    expect(receiver.pushes).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn' }));
  });

  it('send() swallows a failing onGone: logged, never an unhandled rejection', async () => {
    const { sender, lines } = setup({
      onGone: async () => {
        throw new Error('database is locked');
      },
    });
    const subscription = receiver.subscribe();
    receiver.answer(subscription.endpoint, { status: 410 });

    expect(() => sender.send([target(1, subscription)], message())).not.toThrow();
    await sender.idle();

    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringContaining('removing a gone subscription') }),
    );
  });
});

describe('WebPushSender: set-up', () => {
  it('refuses a VAPID public key that does not belong to the private key', () => {
    const other = webPush.generateVAPIDKeys();
    expect(() => setup({ vapid: { ...vapid, publicKey: other.publicKey } })).toThrow(/does not belong/);
  });

  it('refuses a subject that is neither mailto: nor https:', () => {
    expect(() => setup({ vapid: { ...vapid, subject: 'ops@example.com' } })).toThrow();
  });

  it('shows the expiry in the configured zone, without a zone name there', () => {
    const { sender } = setup({ timeZone: 'Europe/Berlin' });
    const text = sender.payload(message({ expires: new Date('2030-01-15T09:42:00Z') }));
    expect(JSON.parse(text ?? 'null').notification.body).toBe('valid until 10:42');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs(' 120 ', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('builds the contract’s WebPushPayload, which the device app’s service worker parses: the code is not on it', () => {
    // The sender is never handed the code: its message has these fields and no other (a field added fails typecheck).
    expectTypeOf<keyof TokenPushMessage>().toEqualTypeOf<
      'instructionId' | 'dashboard' | 'name' | 'scheduled' | 'expires'
    >();
    const { sender } = setup();
    for (const name of ['Payroll export', '', 'Quarterly report '.repeat(400), 'Pay\u202eroll']) {
      const text = sender.payload(message({ name }));
      expect(WebPushPayload.parse(JSON.parse(text ?? 'null'))).toMatchObject({ web_push: 8030 });
    }
    // Strict: a field the worker does not read fails here, before it travels to every phone.
    expect(
      WebPushPayload.safeParse({ ...JSON.parse(sender.payload(message()) ?? 'null'), Token: '604218' }).success,
    ).toBe(false);
  });
});

describe('the test receiver itself: it would catch a wrong push', () => {
  const expected = { publicKey: vapid.publicKey, audience: 'http://127.0.0.1:9', subject: vapid.subject };
  const header = (audience: string, keys = vapid) =>
    webPush.getVapidHeaders(audience, vapid.subject, keys.publicKey, keys.privateKey, 'aes128gcm').Authorization;

  it('accepts a JWT for its origin, and refuses another audience, another key or a missing header', async () => {
    expect(await verifyVapid(header(expected.audience), expected)).toMatchObject({ ok: true });
    expect(await verifyVapid(header('http://127.0.0.1:10'), expected)).toMatchObject({ ok: false });
    const stranger = { ...webPush.generateVAPIDKeys(), subject: vapid.subject };
    expect(await verifyVapid(header(expected.audience, stranger), expected)).toMatchObject({ ok: false });
    // The published key announced, but the JWT signed with another one.
    const forged = header(expected.audience, stranger).replace(/k=[^,\s]+/, `k=${vapid.publicKey}`);
    expect(await verifyVapid(forged, expected)).toMatchObject({ ok: false });
    expect(await verifyVapid(undefined, expected)).toMatchObject({ ok: false });
  });

  it('refuses a JWT that lives longer than 24 hours', async () => {
    const point = Buffer.from(vapid.publicKey, 'base64url');
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
        d: vapid.privateKey,
      },
      'ES256',
    );
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setAudience(expected.audience)
      .setSubject(vapid.subject)
      .setExpirationTime(Math.floor(Date.now() / 1000) + 25 * 60 * 60)
      .sign(key);
    const check = await verifyVapid(`vapid t=${jwt}, k=${vapid.publicKey}`, expected);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('24 h') });
  });

  it('decrypts what web-push encrypts, and refuses a changed byte or another auth secret', () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const { cipherText } = webPush.encrypt(
      ecdh.getPublicKey('base64url'),
      auth.toString('base64url'),
      'hello',
      'aes128gcm',
    );

    expect(decryptAes128gcm(cipherText, { ecdh, auth }).toString('utf8')).toBe('hello');
    const changed = Buffer.from(cipherText);
    changed[changed.length - 20] = (changed[changed.length - 20] ?? 0) ^ 1;
    expect(() => decryptAes128gcm(changed, { ecdh, auth })).toThrow();
    expect(() => decryptAes128gcm(cipherText, { ecdh, auth: randomBytes(16) })).toThrow();
  });
});
