import type { Compilable, Insertable, Kysely } from 'kysely';
import { formatTimestamp } from '../../shared/contract/index.ts';
import { inWords } from '../../shared/in-words.ts';
import { dialectOf } from '../db/database.ts';
import { preparedInsert, preparedLookup } from '../db/prepared-query.ts';
import type { ActivityEventTable, Database } from '../db/schema.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import type { AuditEntityType, AuditEvent } from './audit-event.ts';

/** Text from a client (a typed user name, a User-Agent) is kept to this length, as in the audit line. */
const TEXT_MAX = 256;
const clip = (text: string | null | undefined) => (text ? text.slice(0, TEXT_MAX) : null);
const keyOf = (name: string | null) => (name === null ? null : name.trim().toLowerCase());

/** PostgreSQL takes at most 65,535 parameters a statement: 14 a row. */
const ROWS_PER_INSERT = 1_000;

/** Events kept in this long are announced together. */
const ANNOUNCE_MS = 250;

/** What an event may be about that is the service's own, not a person's: its data, where its alerts go. */
const SERVICE_ENTITIES: ReadonlySet<AuditEntityType> = new Set<AuditEntityType>(['Database', 'AlertDestination']);

/**
 * Whom an event concerns: the person of the request, push user, device or account it names, read as its row is written
 * (after the change the event records committed); else the person a link was issued for; else whoever acted (a sign-in,
 * a step-up: their own). Nobody for the service's own (a demo reset, a backup, an alert destination): those are not
 * the acting admin's, and filled their person page.
 */
async function personOf(db: Kysely<Database>, event: AuditEvent): Promise<string | null> {
  if (event.entity && SERVICE_ENTITIES.has(event.entity.type)) return null;
  const id = Number(event.entity?.id);
  const read = event.entity ? PERSON_OF[event.entity.type] : undefined;
  if (read && Number.isInteger(id) && id > 0) {
    const row = await read(db, id);
    if (row) return row.user_name;
  }
  const forWhom = event.details?.for;
  if (typeof forWhom === 'string') return forWhom;
  return event.userName ?? null;
}

/** A read of whom an entity concerns, by its id: compiled once, and on PostgreSQL one query per round of events. */
const lookupPerson = <Row extends { id: number; user_name: string }>(
  one: (db: Kysely<Database>, id: number) => Compilable<Row>,
  many: (db: Kysely<Database>, ids: readonly number[]) => Compilable<Row>,
) => preparedLookup(one, many, (row) => row.id);

/** The same, for a table whose rows name their person themselves. */
const lookupPersonIn = (table: 'authorization_requests' | 'push_message_users' | 'principals') =>
  lookupPerson(
    (db, id) => db.selectFrom(table).select(['id', 'user_name']).where('id', '=', id),
    (db, ids) =>
      db
        .selectFrom(table)
        .select(['id', 'user_name'])
        .where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))),
  );

const PERSON_OF: Partial<
  Record<string, (db: Kysely<Database>, id: number) => Promise<{ user_name: string } | undefined>>
> = {
  AuthorizationRequest: lookupPersonIn('authorization_requests'),
  PushMessageUser: lookupPersonIn('push_message_users'),
  Account: lookupPersonIn('principals'),
  Device: lookupPerson(
    (db, id) => devicePerson(db).where('devices.id', '=', id),
    (db, ids) => devicePerson(db).where((eb) => eb('devices.id', '=', eb.fn.any(eb.val(ids)))),
  ),
};

function devicePerson(db: Kysely<Database>) {
  return db
    .selectFrom('devices')
    .innerJoin('principals', 'principals.id', 'devices.principal_id')
    .select(['devices.id', 'principals.user_name']);
}

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
  // The reason twice: as its code, and in words as the dashboard shows it ("invalid credentials").
  const words = reason === null ? null : inWords(reason);
  const reasonInWords = words === reason ? null : words;
  const search = [event.action, actor, person, targetId, event.sourceIp, reason, reasonInWords, userAgent, details]
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
 * The audit stream's events, also kept in the database for the Activity page: appended, never changed. A write never
 * delays what caused the event (the audit line is written at once; the row follows on SQLite's group commit, or in
 * PostgreSQL's one insert of the round's events), and a failed write is reported, never thrown at the request. Reads
 * in this process wait for the writes already begun (`settled`), so an answer includes every event that happened
 * before it was asked for.
 */
export class ActivityStore {
  private readonly db: Kysely<Database>;
  private readonly onError: (error: unknown) => void;
  private readonly pending = new Set<Promise<void>>();
  private onKept: (() => void) | null = null;
  private announcing: NodeJS.Timeout | null = null;
  /** PostgreSQL: the rows waiting for this round's insert. */
  private readonly round: { row: Insertable<ActivityEventTable>; resolve(): void; reject(error: unknown): void }[] = [];

  constructor(db: Kysely<Database>, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
  }

  append(event: AuditEvent, at: Date): void {
    // SQLite: the row joins the group commit. PostgreSQL: the rows of one round of events go as one insert, which
    // commits alone; a transaction and two statements per event had made each status change six round trips.
    const write = (
      dialectOf(this.db) === 'postgres'
        ? personOf(this.db, event).then((person) => this.insertInRound(rowOf(event, at, clip(person))))
        : writeTransaction(this.db, async (trx) => insertEvent(trx, rowOf(event, at, clip(await personOf(trx, event)))))
    )
      .then(() => this.announce())
      .catch(this.onError);
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  private insertInRound(row: Insertable<ActivityEventTable>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.round.push({ row, resolve, reject });
      // After the I/O of this turn, as the group commit: every event of the round joins the insert.
      if (this.round.length === 1) setImmediate(() => void this.insertRound());
    });
  }

  private async insertRound(): Promise<void> {
    const rows = this.round.splice(0, ROWS_PER_INSERT);
    if (this.round.length > 0) setImmediate(() => void this.insertRound());
    try {
      await this.db
        .insertInto('activity_events')
        .values(rows.map((queued) => queued.row))
        .execute();
      for (const queued of rows) queued.resolve();
    } catch (error) {
      for (const queued of rows) queued.reject(error);
    }
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
