import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { DeviceEvent, Instruction } from '../../../shared/contract/index.ts';
import { decide, deviceCall, deviceStateOf, enrollDevice, setPushUserStatus } from '../../test/device-helpers.ts';
import { createTestApp, parseBody, type TestApp, useTestApp } from '../../test/harness.ts';
import { testDatabaseServer } from '../../test/test-database.ts';

const ADMIN = ['ACME\\admin', 'Quiet lantern harbour 42'] as const;
const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;
const CONFIG = { demo: false, adminUserName: ADMIN[0], adminPassword: ADMIN[1] };

interface Received {
  id: number | null;
  event: DeviceEvent;
}

/** Reads a device's Server-Sent Events as they come, each with its id. */
class EventReader {
  readonly received: Received[] = [];
  ended = false;
  private readonly waiters: Array<() => void> = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
    void this.pump();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
          const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
          if (data) this.received.push({ id: id ? Number(id) : null, event: DeviceEvent.parse(JSON.parse(data)) });
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    } catch {
      // Cancelled by the test.
    }
    this.ended = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Waits until `count` events arrived (or the stream ended), then answers them all. */
  async events(count: number, timeoutMs = 5_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count && !this.ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.received;
  }

  async untilEnded(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return this.ended;
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function openStream(base: string, deviceToken: string, lastEventId?: number): Promise<EventReader> {
  const response = await fetch(`${base}/api/Device/Events`, {
    headers: {
      authorization: `Device ${deviceToken}`,
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
    },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  if (!response.body) throw new Error('no stream');
  return new EventReader(response.body);
}

const types = (received: Received[]) => received.map((item) => item.event.Type);

describe('GET /Device/Events (Server-Sent Events)', () => {
  const { t } = useTestApp({ config: CONFIG });
  let base: string;
  let admin: string;
  let dana: string;
  beforeEach(async () => {
    base = await listen(t);
    await t.addPrincipal(DANA[0], DANA[1], []);
    admin = await t.login(...ADMIN);
    dana = await t.login(...DANA);
  });

  it('sends the state at connect and after each change, then codes as they arrive and stop working', async () => {
    const phone = await enrollDevice(t, { token: dana });
    const stream = await openStream(base, phone.DeviceToken);
    try {
      const [first] = await stream.events(1);
      expect(first?.event).toMatchObject({ Type: 'device', Device: { RequestStatus: 'Pending' } });

      await decide(t, admin, phone);
      // Someone else's device being decided is none of this device's business: no event for it below.
      await t.addPrincipal('ACME\\eve', 'Eve keeps a long passphrase', []);
      const eve = await enrollDevice(t, { token: await t.login('ACME\\eve', 'Eve keeps a long passphrase') });
      await decide(t, admin, eve);
      const { PushMessageUserId } = await deviceStateOf(t, phone.DeviceToken);
      const setStatus = (Status: number) => setPushUserStatus(t, admin, PushMessageUserId, Status);
      await stream.events(2);
      await setStatus(2);
      await stream.events(3);
      await setStatus(1);
      await stream.events(4);
      const instruction = parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name: 'Patch' } }),
        Instruction,
      );
      const received = await stream.events(5);
      const token = received[4]?.event;
      if (token?.Type !== 'token') throw new Error(`expected a token event, got ${JSON.stringify(received)}`);
      expect(token.Push).toMatchObject({ InstructionId: instruction.Id, Name: 'Patch', ClientAddress: '127.0.0.1' });
      expect(received[4]?.id).toBeGreaterThan(0);

      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/Instruction/Token',
        token: dana,
        payload: { Id: instruction.Id, Token: token.Push.Token },
      });
      const all = await stream.events(6);
      expect(types(all)).toEqual(['device', 'device', 'device', 'device', 'token', 'token-ended']);
      expect(
        all.slice(1, 4).map((item) => item.event.Type === 'device' && item.event.Device.PushMessageUserStatus),
      ).toEqual([1, 2, 1]);
      expect(all[5]?.event).toEqual({ Type: 'token-ended', InstructionId: instruction.Id });
      expect(all[5]?.id).toBeGreaterThan(all[4]?.id ?? 0);
      expect(all[1]?.event).toMatchObject({ Device: { RequestStatus: 'Authorized' } });
    } finally {
      await stream.close();
    }
  });

  it('sends a state only when it differs from the last one sent', async () => {
    const phone = await enrollDevice(t, { token: dana });
    await decide(t, admin, phone);
    const { PushMessageUserId } = await deviceStateOf(t, phone.DeviceToken);
    const stream = await openStream(base, phone.DeviceToken);
    try {
      await stream.events(1);
      const setStatus = (Status: number) => setPushUserStatus(t, admin, PushMessageUserId, Status);
      // Set to the status it has: a change notice for this device, and nothing new to say.
      await setStatus(1);
      await setStatus(2);
      const received = await stream.events(3, 1_000);
      expect(received.map((item) => item.event.Type === 'device' && item.event.Device.PushMessageUserStatus)).toEqual([
        1, 2,
      ]);
    } finally {
      await stream.close();
    }
  });

  it('resumes after a reconnect from Last-Event-ID: the state first, then what it missed, in order', async () => {
    const phone = await enrollDevice(t, { token: dana });
    await decide(t, admin, phone);
    const first = await openStream(base, phone.DeviceToken);
    const instruction = parseBody(
      await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name: 'Resume me' } }),
      Instruction,
    );
    const seen = await first.events(2);
    expect(types(seen)).toEqual(['device', 'token']);
    const lastId = seen[1]?.id ?? 0;
    await first.close();

    // Missed while away: the code replaced by a new one.
    const reissued = await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: dana });
    expect(reissued.statusCode).toBe(200);
    const again = await openStream(base, phone.DeviceToken, lastId);
    try {
      const replayed = await again.events(3);
      expect(types(replayed)).toEqual(['device', 'token-ended', 'token']);
      expect(replayed[0]?.id).toBe(lastId);
      expect((replayed[1]?.id ?? 0) > lastId && (replayed[2]?.id ?? 0) > (replayed[1]?.id ?? 0)).toBe(true);
    } finally {
      await again.close();
    }
    // Without Last-Event-ID a new stream starts from now: the state only.
    const fresh = await openStream(base, phone.DeviceToken);
    try {
      const now = await fresh.events(2, 500);
      expect(types(now)).toEqual(['device']);
      expect(now[0]?.id).toBeGreaterThan(lastId);
    } finally {
      await fresh.close();
    }
  });

  it('ends as soon as the device is removed, waiting or authorized, and refuses it from then on', async () => {
    const waiting = await enrollDevice(t, { token: dana });
    const authorized = await enrollDevice(t, { token: dana }, { DeviceType: 'Android' });
    await decide(t, admin, authorized);
    for (const phone of [waiting, authorized]) {
      const stream = await openStream(base, phone.DeviceToken);
      await stream.events(1);
      expect((await deviceCall(t, phone.DeviceToken, { method: 'DELETE', url: '/api/Device' })).statusCode).toBe(204);
      // At once, from the change event: well before the periodic check (10 s) would notice.
      expect(await stream.untilEnded(1_500)).toBe(true);
      const refused = await fetch(`${base}/api/Device/Events`, {
        headers: { authorization: `Device ${phone.DeviceToken}` },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('a Disabled device hears its state and no code; Active again, it hears the next one', async () => {
    const lost = await enrollDevice(t, { token: dana });
    const other = await enrollDevice(t, { token: dana });
    await decide(t, admin, lost);
    await decide(t, admin, other);
    const { PushMessageUserId } = await deviceStateOf(t, lost.DeviceToken);
    await setPushUserStatus(t, admin, PushMessageUserId, 2);
    const stream = await openStream(base, lost.DeviceToken);
    try {
      expect((await stream.events(1))[0]?.event).toMatchObject({ Device: { PushMessageUserStatus: 2 } });
      const instruction = parseBody(
        await t.call({
          method: 'POST',
          url: '/api/Instructions',
          token: dana,
          payload: { Name: 'Not for the lost one' },
        }),
        Instruction,
      );
      expect(instruction.DevicesNotified).toBe(1);
      // The code is used: the other phone hears it end; the Disabled one hears nothing of either.
      const reissued = await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: dana });
      expect(reissued.statusCode).toBe(200);
      expect(types(await stream.events(2, 1_000))).toEqual(['device']);
      await setPushUserStatus(t, admin, PushMessageUserId, 1);
      const after = await stream.events(2);
      expect(types(after)).toEqual(['device', 'device']);
      expect(after[1]?.event).toMatchObject({ Device: { PushMessageUserStatus: 1 } });
      // Codes made while it was Disabled never went to it (nor their ends); the next one does.
      const next = await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: dana });
      expect(next.statusCode).toBe(200);
      expect(types(await stream.events(3))).toEqual(['device', 'device', 'token']);
    } finally {
      await stream.close();
    }
  }, 15_000);

  it('"This wasn’t me": every phone of the person hears each of their waiting codes end, not only the reported one', async () => {
    const reporter = await enrollDevice(t, { token: dana });
    const tablet = await enrollDevice(t, { token: dana }, { DeviceType: 'Android' });
    await decide(t, admin, reporter);
    await decide(t, admin, tablet);
    const instruct = async (Name: string) =>
      parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name } }),
        Instruction,
      );
    const other = await instruct('Mine, asked a minute ago');
    const reported = await instruct('Not mine');
    const stream = await openStream(base, tablet.DeviceToken);
    try {
      await stream.events(1);
      const report = await deviceCall(t, reporter.DeviceToken, {
        method: 'POST',
        url: `/api/Device/Pushes/${reported.Id}/Report`,
      });
      expect(report.statusCode, report.body).toBe(204);
      const received = await stream.events(3);
      expect(received.slice(1).map((item) => item.event)).toEqual([
        { Type: 'token-ended', InstructionId: reported.Id },
        { Type: 'token-ended', InstructionId: other.Id },
      ]);
    } finally {
      await stream.close();
    }
  });

  it('lets the service shut down while a device stream is open', async () => {
    const phone = await enrollDevice(t, { token: dana });
    const stream = await openStream(base, phone.DeviceToken);
    await stream.events(1);
    const started = performance.now();
    await t.app.close();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

/** Two app instances with their own pools on one PostgreSQL database are, to the database, two processes. */
describe.runIf(testDatabaseServer() !== null)('device streams across processes sharing PostgreSQL', () => {
  it('hears a decision and a code made through another process', async () => {
    const first = await createTestApp(CONFIG);
    const second = await createTestApp({ ...CONFIG, databaseUrl: first.config.databaseUrl });
    try {
      const base = await listen(first);
      await first.addPrincipal(DANA[0], DANA[1], []);
      const dana = await first.login(...DANA);
      const phone = await enrollDevice(first, { token: dana });
      const stream = await openStream(base, phone.DeviceToken);
      try {
        await stream.events(1);
        // The admin decides, and the person asks for a code, both through the other process.
        const admin = await second.login(...ADMIN);
        await decide(second, admin, phone);
        expect((await stream.events(2))[1]?.event).toMatchObject({
          Type: 'device',
          Device: { RequestStatus: 'Authorized', PushMessageUserStatus: 1 },
        });
        const danaThere = await second.login(...DANA);
        const created = await second.call({
          method: 'POST',
          url: '/api/Instructions',
          token: danaThere,
          payload: { Name: 'From the other process' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const received = await stream.events(3);
        expect(received[2]?.event).toMatchObject({ Type: 'token', Push: { Name: 'From the other process' } });
      } finally {
        await stream.close();
      }
    } finally {
      await second.close();
      await first.close();
    }
    // Two apps migrating one PostgreSQL database take a few seconds on a loaded two-core machine.
  }, 20_000);
});

/** Opens a stream as a device or a session, answering the response (a 200 stream to cancel, or a refusal). */
async function streamResponse(base: string, authorization: string): Promise<Response> {
  const url = authorization.startsWith('Device ') ? '/api/Device/Events' : '/api/Consumer/Events';
  return fetch(`${base}${url}`, { headers: { authorization, 'x-tachyon-background': '1' } });
}

/** The service still serves everyone else: health and a password sign-in answer. */
async function stillServes(base: string): Promise<void> {
  expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
  const signIn = await fetch(`${base}/api/Consumer/Authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
  });
  expect(signIn.status).toBe(200);
}

async function expectRefused(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('30');
  expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
}

describe('caps on device streams (counted with the dashboard streams)', () => {
  const open: Response[] = [];
  const cancelAll = async () => {
    for (const response of open.splice(0)) await response.body?.cancel().catch(() => undefined);
  };

  it('a device still waiting gets one stream of its state only; an approved one two; a rejected one none', async () => {
    const t = await createTestApp(CONFIG);
    try {
      const base = await listen(t);
      await t.addPrincipal(DANA[0], DANA[1], []);
      const admin = await t.login(...ADMIN);
      const dana = await t.login(...DANA);
      const waiting = await enrollDevice(t, { token: dana });
      const first = await streamResponse(base, `Device ${waiting.DeviceToken}`);
      expect(first.status).toBe(200);
      open.push(first);
      await expectRefused(await streamResponse(base, `Device ${waiting.DeviceToken}`), /waiting for approval/);

      const approved = await enrollDevice(t, { token: dana }, { DeviceType: 'Android' });
      await decide(t, admin, approved);
      for (let i = 0; i < 2; i += 1) {
        const response = await streamResponse(base, `Device ${approved.DeviceToken}`);
        expect(response.status).toBe(200);
        open.push(response);
      }
      await expectRefused(await streamResponse(base, `Device ${approved.DeviceToken}`), /already has 2 live streams/);
      // The waiting device's place is given back when its stream closes.
      await first.body?.cancel();
      open.shift();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await streamResponse(base, `Device ${waiting.DeviceToken}`);
      expect(again.status).toBe(200);
      open.push(again);

      const rejected = await enrollDevice(t, { token: dana }, { DeviceType: 'Windows' });
      await decide(t, admin, rejected, false);
      const refused = await streamResponse(base, `Device ${rejected.DeviceToken}`);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { ErrorCode: string }).ErrorCode).toBe('device-not-approved');
      await stillServes(base);
    } finally {
      await cancelAll();
      await t.close();
    }
  });

  it('counts devices and sessions of one person together, and every stream against the process', async () => {
    const t = await createTestApp({ ...CONFIG, liveStreamsPerAccount: 5, liveStreamsPerProcess: 8 });
    try {
      const base = await listen(t);
      await t.addPrincipal(DANA[0], DANA[1], []);
      await t.addPrincipal('ACME\\eve', 'Eve keeps a long passphrase', []);
      const admin = await t.login(...ADMIN);
      const dana = await t.login(...DANA);
      const phones = [];
      for (const DeviceType of ['iOS', 'Android', 'Windows']) {
        const phone = await enrollDevice(t, { token: dana }, { DeviceType });
        await decide(t, admin, phone);
        phones.push(phone);
      }
      // Dana: two device streams each on two phones, and one dashboard stream: five, her cap.
      for (const phone of phones.slice(0, 2)) {
        for (let i = 0; i < 2; i += 1) open.push(await streamResponse(base, `Device ${phone.DeviceToken}`));
      }
      // Dana's dashboard needs Security Read for the change stream: she has none, so her third phone takes the place.
      open.push(await streamResponse(base, `Device ${phones[2]?.DeviceToken}`));
      expect(open.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      await expectRefused(await streamResponse(base, `Device ${phones[2]?.DeviceToken}`), /account already has 5/);

      // The process: the admin's dashboard streams and Eve's phone fill the remaining three places.
      for (let i = 0; i < 2; i += 1) open.push(await streamResponse(base, `Bearer ${admin}`));
      const eve = await t.login('ACME\\eve', 'Eve keeps a long passphrase');
      const evePhone = await enrollDevice(t, { token: eve });
      open.push(await streamResponse(base, `Device ${evePhone.DeviceToken}`));
      expect(open.slice(5).map((response) => response.status)).toEqual([200, 200, 200]);
      await expectRefused(await streamResponse(base, `Bearer ${admin}`), /service has 8 live streams open/);
      await expectRefused(await streamResponse(base, `Device ${evePhone.DeviceToken}`), /already has its one/);
      await stillServes(base);
    } finally {
      await cancelAll();
      await t.close();
    }
  });
});
