import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useMemo, useSyncExternalStore } from 'react';
import type { ApiVersion, LoginCredentials, LoginResult } from '../../shared/contract/index.ts';
import { isApiError } from '../api/core/api-error.ts';
import { loadApi } from '../api/load-api.ts';
import { forgetUserData } from '../api/queries/system-queries.ts';
import {
  type SessionIdentity,
  type StoredSession,
  sessionFromLogin,
  sessionIdentity,
  sessionStore,
} from './session-store.ts';

export interface SessionContextValue {
  /** Who is signed in and what they may do; its deadlines are `useSessionDeadlines`'. */
  session: SessionIdentity | null;
  signIn(credentials: LoginCredentials, apiVersion: ApiVersion): Promise<StoredSession>;
  /**
   * Keeps the session another sign-in step gave (a passkey, a recovery code); `singleSignOn` when it is the second
   * step after single sign-on (signing out then goes to the provider too).
   */
  adopt(result: LoginResult, apiVersion: ApiVersion, options?: { singleSignOn?: boolean }): StoredSession;
  /** The session may do everything now: a second factor was added in a session that could only add one. */
  enrolled(): void;
  /** Exchanges the one-time code single sign-on gave the sign-in page for the session. */
  signInWithCode(code: string, apiVersion: ApiVersion): Promise<StoredSession>;
  /** Revokes the session on the server (best effort) and forgets it here; true when the server confirmed it. */
  signOut(): Promise<boolean>;
  setApiVersion(version: ApiVersion): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(sessionStore.subscribe, sessionIdentity, sessionIdentity);

  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      async signIn(credentials, apiVersion) {
        const { api, endpoints } = await loadApi();
        const result = await api.call(endpoints.login, { body: credentials });
        const next = sessionFromLogin(result, apiVersion);
        forgetUserData(queryClient);
        sessionStore.set(next);
        return next;
      },
      adopt(result, apiVersion, options) {
        const next = {
          ...sessionFromLogin(result, apiVersion),
          ...(options?.singleSignOn ? { singleSignOn: true } : {}),
        };
        forgetUserData(queryClient);
        sessionStore.set(next);
        return next;
      },
      async signInWithCode(code, apiVersion) {
        const { api, endpoints } = await loadApi();
        const result = await api.call(endpoints.exchangeSingleSignOn, { body: { Code: code } });
        const next = { ...sessionFromLogin(result, apiVersion), singleSignOn: true };
        forgetUserData(queryClient);
        sessionStore.set(next);
        return next;
      },
      enrolled() {
        const current = sessionStore.get();
        if (current?.enrolmentRequired) {
          const { enrolmentRequired: _, ...rest } = current;
          sessionStore.set(rest);
        }
      },
      async signOut() {
        let confirmed = false;
        let providerSignOut: string | null = null;
        try {
          const { api, endpoints } = await loadApi();
          if (sessionStore.get()?.singleSignOn) {
            providerSignOut = (await api.call(endpoints.singleSignOut)).EndSessionUrl;
          } else {
            await api.call(endpoints.endSession);
          }
          confirmed = true;
        } catch (error) {
          // Already ended there (401) is as good as confirmed; unreachable is not. Either way it is forgotten here.
          confirmed = isApiError(error) && error.status === 401;
        }
        sessionStore.set(null);
        forgetUserData(queryClient);
        if (providerSignOut) {
          // The provider's own sign-out, which comes back to the sign-in page. The browser is leaving: nothing after
          // this may run (a navigation to the sign-in page here would race with it).
          window.location.assign(providerSignOut);
          return new Promise<boolean>(() => undefined);
        }
        return confirmed;
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

/** The whole stored session, deadlines included: for what shows or keeps them (it re-renders with every answer). */
export function useSessionDeadlines(): StoredSession | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
