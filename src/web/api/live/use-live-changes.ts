import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../session/session-context.tsx';
import { connectLiveChanges } from './live-changes.ts';
import { type LiveMode, liveMode } from './live-mode.ts';

/** The signed-in layout's one subscription to the change stream (live-changes.ts), for the session it is in. */
export function useLiveChanges(): void {
  const queryClient = useQueryClient();
  const { session } = useSession();
  const token = session?.token;
  useEffect(() => (token ? connectLiveChanges(queryClient) : undefined), [queryClient, token]);
}

/** Whether changes arrive live or the pages poll. */
export function useLiveMode(): LiveMode {
  return useSyncExternalStore(liveMode.subscribe, liveMode.get, liveMode.get);
}
