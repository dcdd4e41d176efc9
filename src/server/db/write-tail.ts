import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * What must commit with the change an action makes, or not at all (the alerts its audit event causes, in the
 * outbox): written last inside the transaction of the first write the action begins, so both commit or neither.
 */
export interface WriteTail {
  /** `noted`: what the write told its action from inside (noteWritten), if anything. */
  write(trx: Transaction<Database>, noted: unknown): Promise<void>;
}

/** What a write told its action (the entity it created), until the tail reads it. */
const notes = new WeakMap<Transaction<Database>, unknown>();

/**
 * Tells the action this write belongs to a fact learnt inside it (the id of the row it created), for the action's
 * tail. A group commit's writes share one transaction one after another: the tail's write clears it before its work.
 */
export function noteWritten(trx: Transaction<Database>, facts: unknown): void {
  notes.set(trx, facts);
}

/** A tail and whether a write carries it (under way) or carried it (committed). */
interface TailState {
  tail: WriteTail;
  /** `closed`: the action has ended; a write begun later in its context (a timer it set) is none of its change. */
  state: 'open' | 'carrying' | 'committed' | 'closed';
}

const tails = new AsyncLocalStorage<TailState>();

/**
 * Runs `action` with `tail` riding on its first write (writeTransaction); answers whether a write that carried it
 * committed. A write that rolls back takes the tail's rows with it, and the next write of the action carries it
 * instead; writes begun at once while one carries it do not.
 */
export async function withWriteTail<T>(
  tail: WriteTail,
  action: () => Promise<T>,
): Promise<{ ok: true; value: T; carried: boolean } | { ok: false; error: unknown; carried: boolean }> {
  const state: TailState = { tail, state: 'open' };
  const ended = () => {
    const carried = state.state === 'committed';
    state.state = 'closed';
    return carried;
  };
  try {
    const value = await tails.run(state, action);
    return { ok: true, value, carried: ended() };
  } catch (error) {
    return { ok: false, error, carried: ended() };
  }
}

/** Runs `fn` outside any action's tail: its writes are not the action's change (the Activity row, a fallback). */
export function apartFromTail<T>(fn: () => T): T {
  return tails.exit(fn);
}

/** The work with the tail of the action it belongs to (read now: a group commit runs the work elsewhere). */
export function withTail<T>(work: Work<T>): { work: Work<T>; settle?: (committed: boolean) => void } {
  const current = tails.getStore();
  if (current?.state !== 'open') return { work };
  current.state = 'carrying';
  return {
    work: async (trx) => {
      notes.delete(trx);
      const value = await work(trx);
      const noted = notes.get(trx);
      notes.delete(trx);
      await current.tail.write(trx, noted);
      return value;
    },
    settle: (committed) => {
      if (current.state === 'carrying') current.state = committed ? 'committed' : 'open';
    },
  };
}
