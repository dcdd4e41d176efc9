import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import {
  type AlertDelivery,
  type AlertDeliveryStatus,
  AlertEventKind,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import type { Dialect } from '../../db/dialect.ts';
import type { AlertDeliveryTable, Database } from '../../db/schema.ts';
import { notFound } from '../../lib/problem-error.ts';
import { eventsOf } from './alert-destinations.ts';
import type { Alert } from './alert-rules.ts';

/** Retries stop this long after an alert was queued: it is marked given up, and the log says so. */
export const RETRY_FOR_MS = 24 * 60 * 60_000;
/** The first retry's wait; each next one doubles, up to RETRY_MAX_WAIT_MS. */
const RETRY_FIRST_WAIT_MS = 5_000;
const RETRY_MAX_WAIT_MS = 60 * 60_000;
/** A claimed delivery is another process's to take over only after this (its sender died mid-send). */
const LEASE_MS = 60_000;
/** Failures in a row after which a destination is marked failing. */
export const FAILING_AFTER = 3;
/** Deliveries the log lists, newest first. */
const LOG_LENGTH = 200;

const STATUSES: Record<AlertDeliveryTable['status'], AlertDeliveryStatus> = {
  pending: 'Pending',
  delivered: 'Delivered',
  'gave-up': 'GaveUp',
};

/** The wait before attempt n + 1 after n failed ones: 5 s, 10 s, 20 s… up to an hour, with a little jitter. */
export function retryWaitMs(attempts: number): number {
  const wait = Math.min(RETRY_FIRST_WAIT_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_WAIT_MS);
  return Math.round(wait * (0.9 + Math.random() * 0.2));
}

/** One delivery claimed for sending: its destination and what to send. */
export interface ClaimedDelivery {
  id: number;
  destinationId: number;
  messageId: string;
  alert: Alert;
  attempts: number;
  queuedAt: string;
  channel: 'email' | 'webhook' | 'slack' | 'teams';
  target: string;
  secret: string | null;
}

/**
 * The alerts outbox: one row per alert and destination, written in the transaction of the change that caused the
 * alert and before anything is sent, so a restart or a crash loses nothing. Deliveries are claimed head first per destination (in order), by one process at a time: on
 * PostgreSQL the claim locks the rows it takes and skips those another process holds (FOR UPDATE SKIP LOCKED), and a
 * lease lets another take over once a claimer has died.
 */
export class AlertOutbox {
  private readonly db: Kysely<Database>;
  private readonly dialect: Dialect;
  private readonly clock: () => Date;

  constructor(db: Kysely<Database>, dialect: Dialect, clock: () => Date) {
    this.db = db;
    this.dialect = dialect;
    this.clock = clock;
  }

  /**
   * Queues the alert for every destination that wants its kind; returns how many deliveries were made. `db`: the
   * transaction of the change that caused it, so the rows commit with the change or not at all.
   */
  async enqueue(alert: Alert, db: Kysely<Database> = this.db): Promise<number> {
    const destinations = await db.selectFrom('alert_destinations').select(['id', 'events']).execute();
    const wanting = destinations.filter((row) => eventsOf(row).includes(alert.kind));
    if (wanting.length === 0) return 0;
    const now = formatTimestamp(this.clock());
    await db
      .insertInto('alert_deliveries')
      .values(
        wanting.map((row) => ({
          destination_id: row.id,
          message_id: `msg_${randomUUID().replaceAll('-', '')}`,
          event_kind: alert.kind,
          summary: alert.summary,
          payload: JSON.stringify(alert),
          status: 'pending' as const,
          next_attempt_at: now,
          lease_until: null,
          last_error: null,
          created_at: now,
          queued_at: now,
          delivered_at: null,
        })),
      )
      .execute();
    return wanting.length;
  }

  /** Takes up to `limit` due deliveries, each the oldest pending one of its destination, for this process. */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock();
    const nowText = formatTimestamp(now);
    const lease = formatTimestamp(new Date(now.getTime() + LEASE_MS));
    const lock = this.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const claimed = await sql<{ id: number }>`
      UPDATE alert_deliveries SET lease_until = ${lease}, attempts = attempts + 1
      WHERE id IN (
        SELECT d.id FROM alert_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${nowText}
          AND (d.lease_until IS NULL OR d.lease_until <= ${nowText})
          AND NOT EXISTS (
            SELECT 1 FROM alert_deliveries e
            WHERE e.destination_id = d.destination_id AND e.status = 'pending' AND e.id < d.id
          )
        ORDER BY d.id LIMIT ${limit}
        ${lock}
      )
      RETURNING id`.execute(this.db);
    const ids = claimed.rows.map((row) => Number(row.id));
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('alert_deliveries')
      .innerJoin('alert_destinations', 'alert_destinations.id', 'alert_deliveries.destination_id')
      .select([
        'alert_deliveries.id',
        'alert_deliveries.destination_id',
        'alert_deliveries.message_id',
        'alert_deliveries.payload',
        'alert_deliveries.attempts',
        'alert_deliveries.queued_at',
        'alert_destinations.channel',
        'alert_destinations.target',
        'alert_destinations.secret',
      ])
      .where('alert_deliveries.id', 'in', ids)
      .orderBy('alert_deliveries.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      destinationId: row.destination_id,
      messageId: row.message_id,
      alert: JSON.parse(row.payload) as Alert,
      attempts: row.attempts,
      queuedAt: row.queued_at,
      channel: row.channel,
      target: row.target,
      secret: row.secret,
    }));
  }

  /** The receiver took it: delivered, and its destination works. */
  async delivered(delivery: ClaimedDelivery): Promise<void> {
    const now = formatTimestamp(this.clock());
    await this.db
      .updateTable('alert_deliveries')
      .set({ status: 'delivered', delivered_at: now, lease_until: null, last_error: null, next_attempt_at: now })
      .where('id', '=', delivery.id)
      .execute();
    await this.db
      .updateTable('alert_destinations')
      .set({ consecutive_failures: 0, failing_since: null, last_delivered_at: now })
      .where('id', '=', delivery.destinationId)
      .execute();
  }

  /**
   * The attempt failed: tried again after a growing wait, or, a day after it was queued, given up. Answers whether it
   * was given up.
   */
  async failed(delivery: ClaimedDelivery, reason: string): Promise<'retry' | 'gave-up'> {
    const now = this.clock();
    const givingUp = now.getTime() - Date.parse(`${delivery.queuedAt.replace(' ', 'T')}Z`) >= RETRY_FOR_MS;
    await this.db
      .updateTable('alert_deliveries')
      .set({
        status: givingUp ? 'gave-up' : 'pending',
        lease_until: null,
        last_error: reason.slice(0, 500),
        next_attempt_at: formatTimestamp(new Date(now.getTime() + (givingUp ? 0 : retryWaitMs(delivery.attempts)))),
      })
      .where('id', '=', delivery.id)
      .execute();
    await this.db
      .updateTable('alert_destinations')
      .set((eb) => ({
        consecutive_failures: eb('consecutive_failures', '+', 1),
        failing_since: sql<string | null>`CASE WHEN consecutive_failures + 1 >= ${FAILING_AFTER}
          THEN COALESCE(failing_since, ${formatTimestamp(now)}) ELSE failing_since END`,
      }))
      .where('id', '=', delivery.destinationId)
      .execute();
    return givingUp ? 'gave-up' : 'retry';
  }

  /** A destination's log, newest first. */
  async log(destinationId: number): Promise<AlertDelivery[]> {
    const exists = await this.db
      .selectFrom('alert_destinations')
      .select('id')
      .where('id', '=', destinationId)
      .executeTakeFirst();
    if (!exists) throw notFound('Alert destination', destinationId);
    const rows = await this.db
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('destination_id', '=', destinationId)
      .orderBy('id', 'desc')
      .limit(LOG_LENGTH)
      .execute();
    return rows.map(shapeDelivery);
  }

  /**
   * "Send again": due now, with the same message id, and a new day of retries. The destination's older pending
   * deliveries still go first.
   */
  async resend(id: number): Promise<AlertDelivery> {
    const now = formatTimestamp(this.clock());
    const updated = await this.db
      .updateTable('alert_deliveries')
      .set({ status: 'pending', next_attempt_at: now, queued_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFound('Alert delivery', id);
    return shapeDelivery(updated);
  }
}

function shapeDelivery(row: Selectable<AlertDeliveryTable>): AlertDelivery {
  const kind = AlertEventKind.safeParse(row.event_kind);
  return {
    Id: row.id,
    MessageId: row.message_id,
    Event: kind.success ? kind.data : 'CodeReported',
    Summary: row.summary,
    Status: STATUSES[row.status],
    Attempts: row.attempts,
    LastError: row.last_error,
    CreatedTimestampUtc: row.created_at,
    NextAttemptUtc: row.status === 'pending' ? row.next_attempt_at : null,
    DeliveredUtc: row.delivered_at,
  };
}
