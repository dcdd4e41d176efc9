import { personActiveRecently } from '../session/person-activity.ts';
import { sessionStore, updateDeadlines } from '../session/session-store.ts';
import { activeApiVersion } from '../settings/resolve-version.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { createApiClient } from './client.ts';
import { createConsumerApi } from './consumer-api.ts';
import { reportSessionEnded } from './session-events.ts';

export const api = createConsumerApi(
  createApiClient({
    baseUrl: () => settingsStore.get().baseUrl,
    apiVersion: () => activeApiVersion(sessionStore.get()),
    token: () => sessionStore.get()?.token ?? null,
    consumerName: () => settingsStore.get().consumerName,
    background: () => !personActiveRecently(Date.now(), sessionStore.get()?.idleSeconds),
    onSessionAnswer: (response) => updateDeadlines(response.headers),
    onUnauthorized: reportSessionEnded,
  }),
);

export type ConsumerApi = typeof api;
