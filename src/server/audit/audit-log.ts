import type { Transaction } from 'kysely';
import pino from 'pino';
import type { Database } from '../db/schema.ts';
import { apartFromTail, noteWritten, withWriteTail } from '../db/write-tail.ts';
import type { Clock } from '../lib/clock.ts';
import { endDestination } from '../lib/log-destination.ts';
import type { ActivityStore } from './activity-store.ts';
import { type AuditEvent, auditLine } from './audit-event.ts';

/** Where audit lines go: a stream taking whole lines, reopened after log rotation when it is a file. */
export interface AuditSink {
  write(line: string): void;
  reopen?(): void;
  close?(): Promise<void>;
}

/** Told of each event as it is recorded; it must not throw nor wait. */
export type AuditListener = (event: AuditEvent, at: Date) => void;

/**
 * Writes what an event causes that must commit with the change it records (the alerts' outbox rows): in `trx`, the
 * change's own transaction, or with `trx` null in a transaction of its own, for an event no change of this process
 * carried (a refused sign-in). A throw inside the change's transaction rolls the change back.
 */
export type AuditWriter = (event: AuditEvent, at: Date, trx: Transaction<Database> | null) => Promise<void>;

/** Facts a change learns while it is written (the entity it creates), for its event's writers. */
export type WrittenFacts = Pick<AuditEvent, 'entity' | 'userName'>;

/**
 * Tells the event of the action this write belongs to what it made (the account or request it created), from inside
 * the write's transaction, so the alerts written with it can name it.
 */
export function noteAuditFacts(trx: Transaction<Database>, facts: WrittenFacts): void {
  noteWritten(trx, facts);
}

/** How an action with its event's writers went: `carried`, its writes committed with the event's rows. */
export type ChangeOutcome<T> = { carried: boolean; noted: Partial<WrittenFacts> } & (
  | { ok: true; value: T }
  | { ok: false; error: unknown }
);

/**
 * The audit stream: each event one line, in the order they happened (off, with no sink: no line is written), and each
 * also kept in the database for the Activity page when a store is given. `record` is the one way to record a
 * security event: whatever happens in the service that the security team should see goes through it.
 */
export class AuditLog {
  private readonly sink: AuditSink | null;
  private readonly clock: Clock;
  private readonly listeners: AuditListener[] = [];
  private readonly writers: AuditWriter[] = [];
  /** Writers' transactions of their own under way. */
  private readonly apart = new Set<Promise<void>>();
  readonly activity: ActivityStore | null;

  constructor(sink: AuditSink | null, clock: Clock, activity: ActivityStore | null = null) {
    this.sink = sink;
    this.clock = clock;
    this.activity = activity;
  }

  /**
   * Records an event. `written`: its writers already wrote with its change (`change`); otherwise they write in a
   * transaction of their own, and the promise resolves once they have (whoever answers for the event waits for it,
   * so a crash after the answer cannot lose what it caused). It never rejects: a writer reports its own failures.
   */
  record(event: AuditEvent, written = false): Promise<void> {
    const at = this.clock();
    this.sink?.write(`${auditLine(event, at)}\n`);
    // The Activity row is no part of whatever change an action is making (its own write, never that change's tail).
    apartFromTail(() => this.activity?.append(event, at));
    for (const listener of this.listeners) listener(event, at);
    if (written || this.writers.length === 0) return Promise.resolve();
    const writers = this.writers;
    const write = apartFromTail(async () => {
      for (const writer of writers) await writer(event, at, null);
    }).catch(() => {});
    this.apart.add(write);
    void write.finally(() => this.apart.delete(write));
    return write;
  }

  /**
   * Runs `work`, the change `event` records (as known before it runs, a success), with its writers writing inside the
   * transaction of the work's first write: the change and what its event causes commit together or not at all. The
   * caller records the event afterwards, `written` when `carried`.
   */
  async change<T>(event: AuditEvent, work: () => Promise<T>): Promise<ChangeOutcome<T>> {
    let noted: Partial<WrittenFacts> = {};
    const writers = this.writers;
    const outcome = await withWriteTail(
      {
        write: async (trx, facts) => {
          noted = (facts ?? {}) as Partial<WrittenFacts>;
          const at = this.clock();
          for (const writer of writers) await writer({ ...event, ...noted }, at, trx);
        },
      },
      work,
    );
    return { ...outcome, noted };
  }

  /** Hears every event from now on, whether or not AUDIT_LOG writes them anywhere. */
  listen(listener: AuditListener): void {
    this.listeners.push(listener);
  }

  /** Writes what every event from now on causes, with its change (see AuditWriter). */
  writeWith(writer: AuditWriter): void {
    this.writers.push(writer);
  }

  /** Resolves once the writers' own transactions begun so far have ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.apart]);
  }
}

/** How long closing waits for buffered lines to reach the file. */
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * AUDIT_LOG as a sink: standard output (the service log's own stream when given, so lines of the two never interleave),
 * or a file appended to and created with the service user's rights alone (lines name people and their addresses).
 * A file reopens on SIGHUP, so logrotate can move it away and signal the service.
 */
export function openAuditSink(setting: string, stdout?: AuditSink): AuditSink {
  if (setting === 'stdout' && stdout) return stdout;
  const destination = pino.destination({
    dest: setting === 'stdout' ? 1 : setting,
    sync: false,
    mkdir: true,
    append: true,
    ...(setting === 'stdout' ? {} : { mode: 0o600 }),
  });
  if (setting === 'stdout') return { write: (line) => destination.write(line) };
  const reopen = () => destination.reopen();
  process.on('SIGHUP', reopen);
  return {
    write: (line) => destination.write(line),
    reopen,
    close() {
      process.off('SIGHUP', reopen);
      return endDestination(destination, CLOSE_TIMEOUT_MS);
    },
  };
}

/**
 * The app's audit stream: the sink a test hands in, else the one AUDIT_LOG names (closed with the app), else none.
 */
export function openAuditLog(
  setting: string | null,
  clock: Clock,
  given: { sink?: AuditSink | null; stdout?: AuditSink; activity?: ActivityStore },
): { audit: AuditLog; close(): Promise<void> } {
  const activity = given.activity ?? null;
  if (given.sink !== undefined) {
    return { audit: new AuditLog(given.sink, clock, activity), close: async () => activity?.settled() };
  }
  const sink = setting === null ? null : openAuditSink(setting, given.stdout);
  return {
    audit: new AuditLog(sink, clock, activity),
    close: async () => {
      await activity?.settled();
      if (sink !== given.stdout) await sink?.close?.();
    },
  };
}
