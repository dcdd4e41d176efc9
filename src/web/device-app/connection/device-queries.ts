import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceEnrollment,
  DeviceEvent,
  DeviceNotice,
  DevicePush,
  DeviceState,
  PushSubscriptionInput,
} from '../../../shared/contract/index.ts';
import { type DeviceCredential, deviceCredentialStore } from './device-credential.ts';
import { deviceApi, holdSignInToken } from './device-instance.ts';
import { unsubscribeFromPush } from './web-push.ts';

/** How often the device app asks when its live stream is down (or the service has none). */
export const DEVICE_POLL_MS = 5_000;

export const deviceQueries = {
  all: ['device'] as const,
  /** Keyed by the credential, so a new enrolment never shows the previous one's state. */
  state: (credential: DeviceCredential) =>
    queryOptions({
      queryKey: [...deviceQueries.all, 'state', credential.token] as const,
      queryFn: ({ signal }) => deviceApi.device(signal),
    }),
  pushes: (credential: DeviceCredential) =>
    queryOptions({
      queryKey: [...deviceQueries.all, 'pushes', credential.token] as const,
      queryFn: ({ signal }) => deviceApi.pushes(signal),
    }),
  notices: (credential: DeviceCredential) =>
    queryOptions({
      queryKey: [...deviceQueries.all, 'notices', credential.token] as const,
      queryFn: ({ signal }) => deviceApi.notices(signal),
    }),
  pushKey: () =>
    queryOptions({
      queryKey: [...deviceQueries.all, 'push-key'] as const,
      queryFn: ({ signal }) => deviceApi.pushKey(signal),
      staleTime: 10 * 60_000,
    }),
};

function newestFirst(pushes: DevicePush[]): DevicePush[] {
  return [...pushes].sort((a, b) => b.SentTimestampUtc.localeCompare(a.SentTimestampUtc));
}

/** The one way the device app's cache learns from its live stream. */
export function deviceEventReceived(queryClient: QueryClient, credential: DeviceCredential, event: DeviceEvent): void {
  switch (event.Type) {
    case 'device':
      queryClient.setQueryData(deviceQueries.state(credential).queryKey, event.Device);
      // A device that is no longer Active has no codes; one that became Active may have some.
      void queryClient.invalidateQueries({ queryKey: deviceQueries.pushes(credential).queryKey });
      return;
    case 'token':
      queryClient.setQueryData(deviceQueries.pushes(credential).queryKey, (old: DevicePush[] | undefined) =>
        newestFirst([...(old ?? []).filter((push) => push.InstructionId !== event.Push.InstructionId), event.Push]),
      );
      return;
    case 'token-ended':
      queryClient.setQueryData(deviceQueries.pushes(credential).queryKey, (old: DevicePush[] | undefined) =>
        old?.filter((push) => push.InstructionId !== event.InstructionId),
      );
      return;
    case 'notice':
      queryClient.setQueryData(deviceQueries.notices(credential).queryKey, (old: DeviceNotice[] | undefined) =>
        [event.Notice, ...(old ?? []).filter((notice) => notice.Id !== event.Notice.Id)].sort((a, b) => b.Id - a.Id),
      );
      return;
  }
}

/**
 * Enrols this browser: with an enrolment link's code, or signed in with a password (ended right after, best
 * effort: the device credential is what stays). `onEnrolled` belongs to the hook, not to a `mutate` call: the
 * register screen is gone once the credential is stored, and runs first, so the next screen is drawn once.
 */
export function useEnrollDevice({ onEnrolled }: { onEnrolled?: () => void } = {}) {
  return useMutation({
    mutationFn: async ({
      enrollment,
      signInToken,
    }: {
      enrollment: DeviceEnrollment;
      signInToken: string | null;
    }): Promise<DeviceCredential> => {
      holdSignInToken(signInToken);
      try {
        const result = await deviceApi.enroll(enrollment);
        if (signInToken) await deviceApi.endSession().catch(() => undefined);
        return { token: result.DeviceToken, authorizationRequestId: result.AuthorizationRequestId };
      } finally {
        holdSignInToken(null);
      }
    },
    onSuccess: (credential) => {
      onEnrolled?.();
      deviceCredentialStore.set(credential);
    },
  });
}

/** A sign-in not used for an enrolment after all (the person went back): ended at once, best effort. */
export async function endSignIn(signInToken: string): Promise<void> {
  holdSignInToken(signInToken);
  try {
    await deviceApi.endSession().catch(() => undefined);
  } finally {
    holdSignInToken(null);
  }
}

export function useDeviceSignIn() {
  return useMutation({ mutationFn: deviceApi.login });
}

/**
 * "This wasn't me": the code leaves the inbox at once, and the inbox is asked again, since the service ended the
 * person's other waiting codes too; the live stream says so as well, but it may be down (the app polls then).
 */
export function useReportPush(credential: DeviceCredential) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instructionId: number) => deviceApi.reportPush(instructionId),
    onSuccess: (_, instructionId) => {
      deviceEventReceived(queryClient, credential, { Type: 'token-ended', InstructionId: instructionId });
      return queryClient.invalidateQueries({ queryKey: deviceQueries.pushes(credential).queryKey });
    },
  });
}

/** "This wasn't me" about a new device: the notices are read again (the device's enrolment now stands rejected). */
export function useReportNotice(credential: DeviceCredential) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noticeId: number) => deviceApi.reportNotice(noticeId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceQueries.notices(credential).queryKey }),
  });
}

/** The service stores the browser's subscription; the device's state then names its endpoint. */
export function useSavePushSubscription(credential: DeviceCredential) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscription: PushSubscriptionInput) => deviceApi.putPushSubscription(subscription),
    onSuccess: (_, subscription) => {
      queryClient.setQueryData(deviceQueries.state(credential).queryKey, (old: DeviceState | undefined) =>
        old ? { ...old, PushEndpoint: subscription.endpoint } : old,
      );
      return queryClient.invalidateQueries({ queryKey: deviceQueries.state(credential).queryKey });
    },
  });
}

export function useForgetPushSubscription(credential: DeviceCredential) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deviceApi.deletePushSubscription(),
    onSuccess: () => {
      queryClient.setQueryData(deviceQueries.state(credential).queryKey, (old: DeviceState | undefined) =>
        old ? { ...old, PushEndpoint: null } : old,
      );
    },
  });
}

/**
 * Removes this device at the service, then forgets it here: its credential, and the browser's push subscription
 * (nothing is pushed to a browser that no longer knows why). `onRemoved` belongs to the hook, not to a `mutate` call:
 * the screen that asked is gone by the time it runs.
 */
export function useRemoveDevice({ onRemoved }: { onRemoved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await deviceApi.removeDevice();
      await unsubscribeFromPush().catch(() => undefined);
    },
    onSuccess: () => {
      deviceCredentialStore.set(null);
      queryClient.removeQueries({ queryKey: deviceQueries.all });
      onRemoved?.();
    },
  });
}
