import pino from 'pino';
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

/** Told of each event as it is recorded (the alerts); it must not throw nor wait. */
export type AuditListener = (event: AuditEvent, at: Date) => void;

/**
 * The audit stream: each event one line, in the order they happened (off, with no sink: no line is written), and each
 * also kept in the database for the Activity page when a store is given. `record` is the one way to record a
 * security event: whatever happens in the service that the security team should see goes through it.
 */
export class AuditLog {
  private readonly sink: AuditSink | null;
  private readonly clock: Clock;
  private readonly listeners: AuditListener[] = [];
  readonly activity: ActivityStore | null;

  constructor(sink: AuditSink | null, clock: Clock, activity: ActivityStore | null = null) {
    this.sink = sink;
    this.clock = clock;
    this.activity = activity;
  }

  record(event: AuditEvent): void {
    const at = this.clock();
    this.sink?.write(`${auditLine(event, at)}\n`);
    this.activity?.append(event, at);
    for (const listener of this.listeners) listener(event, at);
  }

  /** Hears every event from now on, whether or not AUDIT_LOG writes them anywhere. */
  listen(listener: AuditListener): void {
    this.listeners.push(listener);
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
