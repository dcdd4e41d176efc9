import type { FastifyInstance } from 'fastify';
import { type DeviceEvent, endpoints } from '../../../shared/contract/index.ts';
import { deviceEventsAfter, lastDeviceEventId } from '../../domain/devices/device-events.ts';
import { deviceState, deviceStillLive } from '../../domain/devices/devices.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { eventStreams } from '../../http/event-stream.ts';
import type { Services } from '../services.ts';
import { deviceOf } from './device-of.ts';

/**
 * How often an open device stream checks that its device still stands, for what no event announces (its person
 * disabled). Removal and a Deleted push user are noticed at once, from their change events. Devices do not share a
 * cached check as sessions do, so each check is a query: every 10 s keeps a thousand open phones at 100 a second.
 */
const DEVICE_CHECK_MS = 10_000;

/**
 * A device's live stream: its state at every connect and after every decision or status change that concerns it,
 * and its codes as they arrive or stop working, from the device's event log (so `Last-Event-ID` resumes where a
 * lost connection left off). The change feed says when to look, on PostgreSQL across processes.
 */
export function deviceEventRoutes(app: FastifyInstance, { db, clock, changes }: Services): void {
  const streams = eventStreams(app);

  registerEndpoint(app, endpoints.deviceEvents, ({ request, reply }) => {
    const device = deviceOf(request);
    const header = request.headers['last-event-id'];
    const resumeFrom = typeof header === 'string' && /^\s*\d{1,15}\s*$/.test(header) ? Number(header) : null;
    let lastId = 0;
    let pushUserId = device.pushMessageUserId;
    let unsubscribe = () => {};
    const stream = streams.open(request, reply, {
      stillAllowed: () => deviceStillLive(db, device.id),
      checkEveryMs: DEVICE_CHECK_MS,
      onEnd: () => unsubscribe(),
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
    const sendState = async () => {
      // A change of this device may have ended it (removed, Deleted): then the stream ends instead.
      if (!(await deviceStillLive(db, device.id))) return stream.end();
      const state = await deviceState(db, device.id);
      pushUserId = state.PushMessageUserId;
      const json = JSON.stringify(state);
      if (json === sentState) return;
      sentState = json;
      send({ Type: 'device', Device: state }, lastId);
    };
    const readOn = async () => {
      for (let more = true; more; ) {
        const read = await deviceEventsAfter(db, { id: device.id, pushMessageUserId: pushUserId }, lastId, clock());
        for (const { id, event } of read.events) send(event, id);
        lastId = read.lastId;
        more = read.more;
      }
    };

    // Subscribed before the first read, so nothing committed in between is missed.
    unsubscribe = changes.subscribe((event) => {
      if (event.Type === 'device-signal') {
        if (event.DeviceIds.includes(device.id)) run(readOn);
      } else if (event.Type === 'authorization-request') {
        if (event.Id === device.authorizationRequestId) run(sendState);
      } else if (event.Type === 'push-user') {
        if (event.Id === pushUserId) run(sendState);
      } else {
        // The demo data was reset: this device's enrolment is gone with it.
        stream.end();
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
