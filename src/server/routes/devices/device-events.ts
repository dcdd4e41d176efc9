import type { FastifyInstance } from 'fastify';
import { type DeviceEvent, type DeviceState, endpoints, PushUserStatusCode } from '../../../shared/contract/index.ts';
import { deviceEventsAfter, lastDeviceEventId } from '../../domain/devices/device-events.ts';
import { deviceState, deviceStillLive } from '../../domain/devices/devices.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { eventStreams } from '../../http/event-stream.ts';
import { liveStreamCapsOf } from '../../http/live-stream-caps.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { deviceOf } from './device-of.ts';

/**
 * How often an open device stream checks that its device still stands, for what no event announces (its person
 * disabled). Removal and a Deleted push user are noticed at once, from their change events. Devices do not share a
 * cached check as sessions do, so each check is a query: every 10 s keeps a thousand open phones at 100 a second.
 */
const DEVICE_CHECK_MS = 10_000;

/**
 * Streams one device may hold open: an approved one two (the app open in two tabs, or a reconnect overlapping the
 * stream it replaces); one still waiting for approval a single one, which carries its own state only.
 */
export const MAX_STREAMS_PER_DEVICE = 2;
export const MAX_STREAMS_PER_PENDING_DEVICE = 1;

/** Codes reach a device's stream only while it is approved and its push user Active. */
const receivesCodes = (state: DeviceState) =>
  state.RequestStatus === 'Authorized' && state.PushMessageUserStatus === PushUserStatusCode.Active;

/**
 * A device's live stream: its state at every connect and after every decision or status change that concerns it,
 * and its codes as they arrive or stop working, from the device's event log (so `Last-Event-ID` resumes where a
 * lost connection left off). The change feed says when to look, on PostgreSQL across processes.
 *
 * A device waiting for approval gets its state only (the app learns of the decision live), as does a Disabled one
 * (it learns when it is Active again); a rejected device gets no stream. Streams are capped per device, and count
 * against the person's and the process's caps together with the dashboard's (http/live-stream-caps.ts).
 */
export function deviceEventRoutes(app: FastifyInstance, { db, clock, changes, config }: Services): void {
  const streams = eventStreams(app);
  const caps = liveStreamCapsOf(app, {
    perPerson: config.liveStreamsPerAccount,
    perProcess: config.liveStreamsPerProcess,
  });

  registerEndpoint(app, endpoints.deviceEvents, ({ request, reply }) => {
    const device = deviceOf(request);
    if (device.requestStatus === 'Rejected') {
      throw new ProblemError(
        403,
        'device-not-approved',
        'Device rejected',
        `This device's request ${device.authorizationRequestId} was rejected: it has no live stream. GET /api/Device says why.`,
      );
    }
    const pending = device.requestStatus === 'Pending';
    const max = pending ? MAX_STREAMS_PER_PENDING_DEVICE : MAX_STREAMS_PER_DEVICE;
    const release = caps.admit({
      personId: device.principalId,
      key: `device:${device.id}`,
      max,
      tooManyOwn: pending
        ? 'This device, waiting for approval, already has its one live stream open; close it before opening another.'
        : `This device already has ${max} live streams open; close one before opening another.`,
    });
    const header = request.headers['last-event-id'];
    const resumeFrom = typeof header === 'string' && /^\s*\d{1,15}\s*$/.test(header) ? Number(header) : null;
    let lastId = 0;
    let pushUserId = device.pushMessageUserId;
    let unsubscribe = () => {};
    const stream = streams.open(request, reply, {
      stillAllowed: () => deviceStillLive(db, device.id),
      checkEveryMs: DEVICE_CHECK_MS,
      onEnd: () => {
        release();
        unsubscribe();
      },
    });
    const send = (event: DeviceEvent, id: number) => stream.send(event.Type, event, id);

    // One task at a time, in order: a state sent, the log read on, never two reads overtaking each other.
    let queue: Promise<void> = Promise.resolve();
    const run = (task: () => Promise<void>) => {
      queue = queue.then(task).catch((error: unknown) => {
        request.log.warn({ err: error }, 'device stream failed');
        stream.end();
      });
    };
    // The state last sent: a change notice can arrive after the state it made was sent already (on PostgreSQL a
    // NOTIFY committed before the stream opened reaches it after its first state), and the same state twice says
    // nothing new.
    let sentState = '';
    let codes = false;
    const sendState = async () => {
      // A change of this device may have ended it (removed, Deleted): then the stream ends instead.
      if (!(await deviceStillLive(db, device.id))) return stream.end();
      const state = await deviceState(db, device.id);
      // Rejected while it listened: it has heard the decision, and that is the last it hears.
      if (state.RequestStatus === 'Rejected') {
        send({ Type: 'device', Device: state }, lastId);
        return stream.end();
      }
      pushUserId = state.PushMessageUserId;
      const before = codes;
      codes = receivesCodes(state);
      const json = JSON.stringify(state);
      if (json !== sentState) {
        const first = sentState === '';
        sentState = json;
        send({ Type: 'device', Device: state }, lastId);
        // Approved, or Active again: what it missed meanwhile (codes that still work, as its inbox lists them).
        if (codes && !before && !first) await readOn();
      }
    };
    const readOn = async () => {
      // Waiting, or Disabled: no codes, not even a code's end.
      if (!codes) return;
      for (let more = true; more; ) {
        const read = await deviceEventsAfter(db, { id: device.id, pushMessageUserId: pushUserId }, lastId, clock());
        for (const { id, event } of read.events) send(event, id);
        lastId = read.lastId;
        more = read.more;
      }
    };

    // Subscribed before the first read, so nothing committed in between is missed.
    unsubscribe = changes.subscribe((event) => {
      switch (event.Type) {
        case 'device-signal':
          if (event.DeviceIds.includes(device.id)) run(readOn);
          return;
        case 'authorization-request':
          if (event.Id === device.authorizationRequestId) run(sendState);
          return;
        case 'push-user':
          if (event.Id === pushUserId) run(sendState);
          return;
        case 'reset':
          // The demo data was reset: this device's enrolment is gone with it.
          stream.end();
          return;
        case 'activity':
          // The dashboard's Activity pages' news: nothing of the device's.
          return;
        default:
          // A new kind of change must be decided here, not end every device's stream by falling through.
          event satisfies never;
      }
    });
    run(async () => {
      lastId = resumeFrom ?? (await lastDeviceEventId(db, device.id));
      await sendState();
      if (resumeFrom !== null) await readOn();
    });
    // Hijacked: the stream is the answer, there is nothing for Fastify to send.
    return undefined;
  });
}
