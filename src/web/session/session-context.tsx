import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useMemo, useSyncExternalStore } from 'react';
import type { ApiVersion, LoginCredentials } from '../../shared/contract/index.ts';
import { api } from '../api/instance.ts';
import { forgetUserData } from '../api/queries.ts';
import { type StoredSession, sessionFromLogin, sessionStore } from './session-store.ts';

export interface SessionContextValue {
  session: StoredSession | null;
  signIn(credentials: LoginCredentials, apiVersion: ApiVersion): Promise<StoredSession>;
  /** Revokes the session on the server (best effort) and forgets it here. */
  signOut(): Promise<void>;
  setApiVersion(version: ApiVersion): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);

  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      async signIn(credentials, apiVersion) {
        const result = await api.login(credentials);
        const next = sessionFromLogin(result, apiVersion);
        forgetUserData(queryClient);
        sessionStore.set(next);
        return next;
      },
      async signOut() {
        try {
          await api.endSession();
        } catch {
          // Already expired or unreachable: forgetting it locally is what the person asked for.
        }
        sessionStore.set(null);
        forgetUserData(queryClient);
      },
      setApiVersion(version) {
        const current = sessionStore.get();
        if (current && current.apiVersion !== version) {
          sessionStore.set({ ...current, apiVersion: version });
          void queryClient.resetQueries();
        }
      },
    }),
    [session, queryClient],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}
