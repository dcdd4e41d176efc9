import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../lib/problem-error.ts';

/**
 * Who holds a live stream, as the caps count it: a person's session (the dashboard's change stream) or one of their
 * devices (its own stream). Every stream counts against its holder's own cap, its person's and the process's,
 * whichever kind it is: a person cannot get around the dashboard's caps by enrolling devices, nor the other way.
 */
export interface StreamHolder {
  /** The person (principal Id) the stream is on behalf of. */
  personId: number;
  /** The session or device it is opened with (`session:<token hash>`, `device:<id>`). */
  key: string;
  /** Streams this holder may have open at once. */
  max: number;
  /** What to say when the holder's own cap is reached. */
  tooManyOwn: string;
}

export interface LiveStreamLimits {
  perPerson: number;
  perProcess: number;
}

const tooMany = (detail: string) =>
  new ProblemError(429, 'too-many-requests', 'Too many live streams', detail, { headers: { 'Retry-After': '30' } });

/** The open streams of one service process, per holder, per person and in all. */
export class LiveStreamCaps {
  private open = 0;
  private readonly perHolder = new Map<string, number>();
  private readonly perPerson = new Map<number, number>();
  private readonly limits: LiveStreamLimits;

  constructor(limits: LiveStreamLimits) {
    this.limits = limits;
  }

  /** Takes a place for one more stream of `holder` and answers how to give it back, or throws the 429 that refuses it. */
  admit(holder: StreamHolder): () => void {
    if ((this.perHolder.get(holder.key) ?? 0) >= holder.max) throw tooMany(holder.tooManyOwn);
    if ((this.perPerson.get(holder.personId) ?? 0) >= this.limits.perPerson) {
      throw tooMany(
        `This account already has ${this.limits.perPerson} live streams open in its sessions and devices; ` +
          'close one (a tab, a session elsewhere, a device app) before opening another.',
      );
    }
    if (this.open >= this.limits.perProcess) {
      throw tooMany(
        `The service has ${this.limits.perProcess} live streams open, as many as it keeps; ` +
          'try again later (the dashboard and the device app poll instead).',
      );
    }
    this.open += 1;
    bump(this.perHolder, holder.key, 1);
    bump(this.perPerson, holder.personId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open -= 1;
      bump(this.perHolder, holder.key, -1);
      bump(this.perPerson, holder.personId, -1);
    };
  }
}

function bump<K>(counts: Map<K, number>, key: K, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

const capsOfApp = new WeakMap<FastifyInstance, LiveStreamCaps>();

/** The one count of an app's live streams, shared by every route that opens one (made at the first ask). */
export function liveStreamCapsOf(app: FastifyInstance, limits: LiveStreamLimits): LiveStreamCaps {
  let caps = capsOfApp.get(app);
  if (!caps) {
    caps = new LiveStreamCaps(limits);
    capsOfApp.set(app, caps);
  }
  return caps;
}
