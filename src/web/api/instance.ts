import { personActiveRecently } from '../session/person-activity.ts';
import { sessionStore, updateDeadlines } from '../session/session-store.ts';
import { activeApiVersion } from '../settings/resolve-version.ts';
import { settingsStore } from '../settings/settings-store.ts';
import type { ApiError } from './api-error.ts';
import { createApiClient } from './client.ts';
import { createConsumerApi } from './consumer-api.ts';

const unauthorizedListeners = new Set<(error: ApiError) => void>();

/** The app reacts to a lost session (sign-in page, then back) without the client knowing about routing. */
export function onUnauthorized(listener: (error: ApiError) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Ends the session here as a 401 would (the deadline passed with no answer to tell). */
export function reportSessionEnded(error: ApiError): void {
  for (const listener of unauthorizedListeners) listener(error);
}

export const api = createConsumerApi(
  createApiClient({
    baseUrl: () => settingsStore.get().baseUrl,
    apiVersion: () => activeApiVersion(sessionStore.get()),
    token: () => sessionStore.get()?.token ?? null,
    consumerName: () => settingsStore.get().consumerName,
    background: () => !personActiveRecently(Date.now(), sessionStore.get()?.idleSeconds),
    onSessionAnswer: (response) => updateDeadlines(response.headers),
    onUnauthorized: (error) => {
      for (const listener of unauthorizedListeners) listener(error);
    },
  }),
);
