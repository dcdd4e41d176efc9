import { API_PREFIX, DEFAULT_API_VERSION } from '../../../shared/contract/index.ts';
import type { ApiError } from '../../api/core/api-error.ts';
import { createApiClient } from '../../api/core/client.ts';
import { createDeviceApi } from './device-api.ts';
import { deviceCredentialStore } from './device-credential.ts';

/** How the device app names itself to the service (X-Tachyon-Consumer: the account history shows it). */
export const DEVICE_APP_CONSUMER_NAME = 'Tachyon device app';

/**
 * The password sign-in that enrols a device, held in memory only: it is needed for one call and then ended, so a
 * lost phone holds no session, only its device credential (which an administrator can end).
 */
let signInToken: string | null = null;

export function holdSignInToken(token: string | null): void {
  signInToken = token;
}

const endedListeners = new Set<(error: ApiError) => void>();

/** The service no longer takes this device's credential (removed, its person disabled): the app says so. */
export function onDeviceCredentialEnded(listener: (error: ApiError) => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

export function reportDeviceCredentialEnded(error: ApiError): void {
  for (const listener of endedListeners) listener(error);
}

/** The device app talks to the service that served it, in the interface's default version (its endpoints are in all). */
export const deviceApi = createDeviceApi(
  createApiClient({
    baseUrl: () => API_PREFIX,
    apiVersion: () => DEFAULT_API_VERSION,
    token: () => signInToken,
    deviceToken: () => deviceCredentialStore.get()?.token ?? null,
    consumerName: () => DEVICE_APP_CONSUMER_NAME,
    onUnauthorized: (error, endpoint) => {
      if (endpoint.access.kind === 'device') reportDeviceCredentialEnded(error);
    },
  }),
);
