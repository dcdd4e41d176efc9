import { z } from 'zod/mini';
import { API_PREFIX, SUPPORTED_VERSIONS } from '../../shared/contract/index.ts';
import { SETTINGS_STORAGE_KEY } from '../../shared/stored-session.ts';
import { createPersistentStore } from '../lib/stores/persistent-store.ts';

export const DEFAULT_CONSUMER_NAME = 'Tachyon Consumer Dashboard';

/** Connection settings of this browser; they outlive a session, so they live in localStorage. */
export const Settings = z.object({
  /** `{base_url}` of the seed: the dashboard's own `/api` by default, or any server speaking the interface. */
  baseUrl: z.string().check(z.minLength(1)),
  /** null follows the server's default version. */
  apiVersion: z.nullable(z.enum(SUPPORTED_VERSIONS)),
  consumerName: z.string().check(z.minLength(1)),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: API_PREFIX,
  apiVersion: null,
  consumerName: DEFAULT_CONSUMER_NAME,
};

export const settingsStore = createPersistentStore(
  () => globalThis.localStorage,
  SETTINGS_STORAGE_KEY,
  Settings,
  DEFAULT_SETTINGS,
);
