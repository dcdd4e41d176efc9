import type { Insertable, Kysely } from 'kysely';
import { formatTimestamp } from '../../shared/contract/index.ts';
import { dialectOf } from '../db/database.ts';
import { preparedInsert, preparedStatement } from '../db/prepared-query.ts';
import type { ActivityEventTable, Database } from '../db/schema.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import type { AuditEvent } from './audit-event.ts';

/** Text from a client (a typed user name, a User-Agent) is kept to this length, as in the audit line. */
const TEXT_MAX = 256;
const clip = (text: string | null | undefined) => (text ? text.slice(0, TEXT_MAX) : null);
const keyOf = (name: string | null) => (name === null ? null : name.trim().toLowerCase());

/** Events kept in this long are announced together. */
const ANNOUNCE_MS = 250;

/**
 * Whom an event concerns: the person of the request, push user, device or account it names, read in the event's own
 * write; else the person a link was issued for; else whoever acted (a sign-in, a step-up: their own).
 */
async function personOf(db: Kysely<Database>, event: AuditEvent): Promise<string | null> {
  const id = Number(event.entity?.id);
  const read = event.entity ? PERSON_OF[event.entity.type] : undefined;
  if (read && Number.isInteger(id) && id > 0) {
    const [row] = await read(db, id);
    if (row) return row.user_name;
  }
  const forWhom = event.details?.for;
  if (typeof forWhom === 'string') return forWhom;
  return event.userName ?? null;
}

// Read for nearly every event kept: compiled once.
const PERSON_OF: Partial<Record<string, (trx: Kysely<Database>, id: number) => Promise<{ user_name: string }[]>>> = {
  AuthorizationRequest: preparedStatement(1, (db: Kysely<Database>, id: number) =>
    db.selectFrom('authorization_requests').select('user_name').where('id', '=', id),
  ),
  PushMessageUser: preparedStatement(1, (db: Kysely<Database>, id: number) =>
    db.selectFrom('push_message_users').select('user_name').where('id', '=', id),
  ),
  Account: preparedStatement(1, (db: Kysely<Database>, id: number) =>
    db.selectFrom('principals').select('user_name').where('id', '=', id),
  ),
  Device: preparedStatement(1, (db: Kysely<Database>, id: number) =>
    db
      .selectFrom('devices')
      .innerJoin('principals', 'principals.id', 'devices.principal_id')
      .select('principals.user_name')
      .where('devices.id', '=', id),
  ),
};

const insertEvent = preparedInsert('activity_events', [
  'at',
  'action',
  'outcome',
  'reason',
  'actor',
  'actor_key',
  'person',
  'person_key',
  'target_type',
  'target_id',
  'source_ip',
  'user_agent',
  'details',
  'search',
]);

/** The row that keeps an event: its searchable text is every field a search may name, lower-cased. */
function rowOf(event: AuditEvent, at: Date, person: string | null): Insertable<ActivityEventTable> {
  const actor = clip(event.userName);
  const details = event.details && Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : null;
  const targetId = event.entity?.id === null || event.entity?.id === undefined ? null : String(event.entity.id);
  const reason = event.outcome === 'failure' || event.reason ? (event.reason ?? 'unknown') : null;
  const userAgent = clip(event.userAgent);
  const search = [event.action, actor, person, targetId, event.sourceIp, reason, userAgent, details]
    .filter((part) => part !== null && part !== undefined)
    .join('\n')
    .toLowerCase();
  return {
    at: formatTimestamp(at),
    action: event.action,
    outcome: event.outcome,
    reason,
    actor,
    actor_key: keyOf(actor),
    person,
    person_key: keyOf(person),
    target_type: event.entity?.type ?? null,
    target_id: targetId,
    source_ip: event.sourceIp ?? null,
    user_agent: userAgent,
    details,
    search,
  };
}

/**
 * The audit stream's events, also kept in the database for the Activity page: appended, never changed. A write
 * never delays what caused the event (the audit line is written at once; the row follows on the group commit), and
 * a failed write is reported, never thrown at the request. Reads in this process wait for the writes already begun
 * (`settled`), so an answer includes every event that happened before it was asked for.
 */
export class ActivityStore {
  private readonly db: Kysely<Database>;
  private readonly onError: (error: unknown) => void;
  private readonly pending = new Set<Promise<void>>();
  private onKept: (() => void) | null = null;
  private announcing: NodeJS.Timeout | null = null;

  constructor(db: Kysely<Database>, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
  }

  append(event: AuditEvent, at: Date): void {
    const keep = async (db: Kysely<Database>) => insertEvent(db, rowOf(event, at, clip(await personOf(db, event))));
    // PostgreSQL: the read and the one-row insert as statements of their own (an insert alone commits alone; a
    // transaction around it was two more round trips per event). SQLite: the insert joins the group commit.
    const write = (dialectOf(this.db) === 'postgres' ? keep(this.db) : writeTransaction(this.db, keep))
      .then(() => this.announce())
      .catch(this.onError);
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /**
   * Told, once events are kept, that there are new ones (the change stream's `activity`, so open Activity pages read
   * their first page again): at most once per ANNOUNCE_MS, since a busy service keeps several events a second.
   */
  announceTo(listener: () => void): void {
    this.onKept = listener;
  }

  private announce(): void {
    if (!this.onKept || this.announcing) return;
    this.announcing = setTimeout(() => {
      this.announcing = null;
      this.onKept?.();
    }, ANNOUNCE_MS);
    this.announcing.unref();
  }

  /** Stops announcing (the change feed closes after it). */
  close(): void {
    this.onKept = null;
    if (this.announcing) clearTimeout(this.announcing);
    this.announcing = null;
  }

  /** Resolves once every write begun so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
