import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { requestsChanged } from '../../api/live/cache-updates.ts';
import { holdRequestLists, onLiveChange } from '../../api/live/live-changes.ts';
import { useLiveMode } from '../../api/live/use-live-changes.ts';
import { announce } from '../../lib/announce.ts';
import { useSession } from '../../session/session-context.tsx';

export interface RowChange {
  Status: string;
  ChangedBy: string | null;
}

/**
 * While the queue is open: new requests are counted (not inserted, so nothing moves under the person's eyes) and
 * requests decided by someone else are marked at once. The changes come from the signed-in layout's one live
 * subscription (api/live-changes.ts); without it the queue keeps polling.
 */
export function useLiveQueue() {
  const queryClient = useQueryClient();
  const { session } = useSession();
  const me = session?.userName.toLowerCase() ?? '';
  const mode = useLiveMode();
  const [arrived, setArrived] = useState<ReadonlySet<number>>(new Set());
  const [changed, setChanged] = useState<ReadonlyMap<number, RowChange>>(new Map());

  // The lists are the queue's to refresh while it is open: it brings changes in when the person asks.
  useEffect(() => holdRequestLists(), []);

  useEffect(
    () =>
      onLiveChange((event) => {
        if (event.Type === 'reset') {
          setArrived(new Set());
          setChanged(new Map());
          return;
        }
        if (event.Type !== 'authorization-request') return;
        if (event.Status === 'Pending') {
          setArrived((old) => new Set(old).add(event.Id));
          return;
        }
        // Our own decisions already updated the list.
        if (event.ChangedBy && event.ChangedBy.toLowerCase() === me) return;
        setChanged((old) => new Map(old).set(event.Id, { Status: event.Status, ChangedBy: event.ChangedBy }));
        announce(`Request ${event.Id}: ${event.Status}${event.ChangedBy ? ` by ${event.ChangedBy}` : ''} just now.`);
      }),
    [me],
  );

  // Spoken when the count grows, not when the list takes the new requests in (the person asked for that).
  const announced = useRef(0);
  useEffect(() => {
    if (arrived.size > announced.current) {
      announce(
        arrived.size === 1
          ? '1 new request arrived. Choose "Show 1 new request" to list it.'
          : `${arrived.size} new requests arrived. Choose "Show ${arrived.size} new requests" to list them.`,
      );
    }
    announced.current = arrived.size;
  }, [arrived]);

  /** Brings the counted new requests (and the decided rows' new state) into the list. */
  const apply = useCallback(() => {
    setArrived(new Set());
    setChanged(new Map());
    return requestsChanged(queryClient);
  }, [queryClient]);

  return { mode, arrived, changed, apply };
}
