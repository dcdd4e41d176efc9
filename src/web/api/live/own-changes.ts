import type { ChangeEvent } from '../../../shared/contract/index.ts';

/** How long this browser waits for the echo of its own change on the live stream. */
const ECHO_WAIT_MS = 30_000;

type StatusChange = Extract<ChangeEvent, { Id: number }>;

const keyOf = ({ Type, Id, Status }: Pick<StatusChange, 'Type' | 'Id' | 'Status'>) => `${Type} ${Id} ${Status}`;
const pending = new Map<string, number>();

/**
 * Remembers a change this browser made and already put into its cache (a decision, a status change), so that its
 * echo on the live stream is not applied a second time.
 */
export function rememberOwnChange(change: Pick<StatusChange, 'Type' | 'Id' | 'Status'>, now = Date.now()): void {
  pending.set(keyOf(change), now + ECHO_WAIT_MS);
}

/** Whether the event is the echo of a change this browser made; an echo is recognised once. */
export function isOwnEcho(event: ChangeEvent, now = Date.now()): boolean {
  if (event.Type === 'reset' || event.Type === 'activity') return false;
  const key = keyOf(event);
  const until = pending.get(key);
  if (until === undefined) return false;
  pending.delete(key);
  return now <= until;
}
