import { z } from 'zod/mini';
import { Id } from '../../../shared/contract/index.ts';
import { createPersistentStore } from '../../lib/stores/persistent-store.ts';

/**
 * The device app's identity: the credential enrolment handed out once. localStorage, since it must outlive the tab
 * (a phone opens the app again days later) and is this browser's alone; the password sign-in that enrolled it is
 * not kept.
 */
export const DeviceCredential = z.object({
  token: z.string().check(z.minLength(1)),
  authorizationRequestId: Id,
});
export type DeviceCredential = z.infer<typeof DeviceCredential>;

export const deviceCredentialStore = createPersistentStore(
  () => globalThis.localStorage,
  'tachyon.device',
  z.nullable(DeviceCredential),
  null,
);
