import type { Kysely } from 'kysely';
import { type DeviceEvent, formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database, DeviceEventKind } from '../../db/schema.ts';
import { addMinutes } from '../../lib/clock.ts';
import { deviceNoticeOf } from '../delivery/device-notices.ts';
import { listDevicePushes } from './device-inbox.ts';

/** A device's stream replays at most this many events after a reconnect; older ones it learns from its inbox. */
const REPLAY_LIMIT = 100;
/** Events are kept this long for streams to resume from. */
const RETENTION_MINUTES = 24 * 60;

/** Records an event for each device, inside the transaction that makes it true. */
export async function recordDeviceEvents(
  trx: Kysely<Database>,
  deviceIds: readonly number[],
  kind: DeviceEventKind,
  instructionId: number,
  now: string,
): Promise<void> {
  if (deviceIds.length === 0) return;
  await trx
    .insertInto('device_events')
    .values(deviceIds.map((id) => ({ device_id: id, kind, instruction_id: instructionId, created_at: now })))
    .execute();
}

/** The live devices that were sent a code of this instruction: they are the ones to tell when it stops working. */
export async function devicesHoldingCodeOf(trx: Kysely<Database>, instructionId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('devices')
    .select('devices.id')
    .distinct()
    .innerJoin('pushes', 'pushes.push_message_user_id', 'devices.push_message_user_id')
    .where('pushes.instruction_id', '=', instructionId)
    .where('devices.ended_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

/** The newest event Id of a device (0 for none): where a new stream starts. */
export async function lastDeviceEventId(db: Kysely<Database>, deviceId: number): Promise<number> {
  const row = await db
    .selectFrom('device_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * A device's events after `afterId` (at most REPLAY_LIMIT), as its stream sends them, and the Id of the last one
 * read. A notice is rendered as its list has it now. A code is rendered as the inbox has it now, so one already used, replaced or expired is skipped rather than
 * shown again (its `token-ended` follows anyway); skipped ones still count as read.
 */
export async function deviceEventsAfter(
  db: Kysely<Database>,
  device: { id: number; pushMessageUserId: number | null },
  afterId: number,
  now: Date,
): Promise<{ events: Array<{ id: number; event: DeviceEvent }>; lastId: number; more: boolean }> {
  const rows = await db
    .selectFrom('device_events')
    .select(['id', 'kind', 'instruction_id', 'notice_id'])
    .where('device_id', '=', device.id)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(REPLAY_LIMIT)
    .execute();
  const events: Array<{ id: number; event: DeviceEvent }> = [];
  for (const row of rows) {
    const instructionId = row.instruction_id ?? 0;
    if (row.kind === 'notice') {
      const notice = await deviceNoticeOf(db, device.id, row.notice_id ?? 0);
      if (notice) events.push({ id: row.id, event: { Type: 'notice', Notice: notice } });
      continue;
    }
    if (row.kind === 'token-ended') {
      events.push({ id: row.id, event: { Type: 'token-ended', InstructionId: instructionId } });
      continue;
    }
    const [push] = await listDevicePushes(db, device, now, instructionId);
    if (push) events.push({ id: row.id, event: { Type: 'token', Push: push } });
  }
  return { events, lastId: rows.at(-1)?.id ?? afterId, more: rows.length === REPLAY_LIMIT };
}

/** Forgets events no stream will resume from any more. */
export async function purgeDeviceEvents(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('device_events')
    .where('created_at', '<', formatTimestamp(addMinutes(now, -RETENTION_MINUTES)))
    .execute();
}
