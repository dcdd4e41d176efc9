import { deviceAppEndpoints as endpoints } from '../../../shared/contract/device-endpoints.ts';
import type {
  DeviceEnrollment,
  DeviceEnrollmentResult,
  DeviceNotice,
  DevicePush,
  DeviceState,
  LoginCredentials,
  LoginResult,
  PushKey,
  PushSubscriptionInput,
} from '../../../shared/contract/index.ts';
import type { ApiClient } from '../../api/core/client.ts';

/** What the device app calls, as typed functions over one client (a device credential, or a sign-in on the way). */
export function createDeviceApi(client: ApiClient) {
  return {
    login: (credentials: LoginCredentials): Promise<LoginResult> => client.call(endpoints.login, { body: credentials }),
    endSession: (): Promise<undefined> => client.call(endpoints.endSession),
    enroll: (enrollment: DeviceEnrollment): Promise<DeviceEnrollmentResult> =>
      client.call(endpoints.enrollDevice, { body: enrollment }),
    device: (signal?: AbortSignal): Promise<DeviceState> => client.call(endpoints.getDevice, { signal }),
    removeDevice: (): Promise<undefined> => client.call(endpoints.removeDevice),
    pushKey: (signal?: AbortSignal): Promise<PushKey> => client.call(endpoints.devicePushKey, { signal }),
    putPushSubscription: (subscription: PushSubscriptionInput): Promise<undefined> =>
      client.call(endpoints.putPushSubscription, { body: subscription }),
    deletePushSubscription: (): Promise<undefined> => client.call(endpoints.deletePushSubscription),
    pushes: (signal?: AbortSignal): Promise<DevicePush[]> => client.call(endpoints.devicePushes, { signal }),
    reportPush: (instructionId: number): Promise<undefined> =>
      client.call(endpoints.reportPush, { params: { id: instructionId } }),
    notices: (signal?: AbortSignal): Promise<DeviceNotice[]> => client.call(endpoints.deviceNotices, { signal }),
    reportNotice: (noticeId: number): Promise<undefined> =>
      client.call(endpoints.reportNotice, { params: { id: noticeId } }),
  };
}

export type DeviceApi = ReturnType<typeof createDeviceApi>;
