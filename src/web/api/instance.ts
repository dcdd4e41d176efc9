import { personActiveRecently } from '../session/person-activity.ts';
import { sessionStore, updateDeadlines } from '../session/session-store.ts';
import { activeApiVersion } from '../settings/resolve-version.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { createApiClient } from './core/client.ts';
import { reportSessionEnded } from './live/session-events.ts';
import { askForStepUp } from './step-up.ts';

// Re-exported for code that loads the client on demand (load-api.ts): the catalogue comes with it, not before.
export { endpoints } from '../../shared/contract/index.ts';

/** The dashboard's one client: every call goes through `api.call(endpoints.x, …)`, typed by the catalogue. */
export const api = createApiClient({
  baseUrl: () => settingsStore.get().baseUrl,
  apiVersion: () => activeApiVersion(sessionStore.get()),
  token: () => sessionStore.get()?.token ?? null,
  consumerName: () => settingsStore.get().consumerName,
  background: () => !personActiveRecently(Date.now(), sessionStore.get()?.idleSeconds),
  onSessionAnswer: (response) => updateDeadlines(response.headers),
  onUnauthorized: reportSessionEnded,
  onStepUpRequired: askForStepUp,
});
