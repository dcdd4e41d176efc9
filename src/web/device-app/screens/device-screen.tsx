import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type DeviceState, PushUserStatusCode } from '../../../shared/contract/index.ts';
import { type ApiError, isApiError } from '../../api/core/api-error.ts';
import { announce } from '../../lib/announce.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { InlineError } from '../../ui/inline-error.tsx';
import { type DeviceCredential, deviceCredentialStore } from '../connection/device-credential.ts';
import { onDeviceCredentialEnded } from '../connection/device-instance.ts';
import { DEVICE_POLL_MS, deviceQueries } from '../connection/device-queries.ts';
import { unsubscribeFromPush } from '../connection/web-push.ts';
import { CodeInbox } from './codes/code-inbox.tsx';
import { NewDeviceNotices } from './codes/new-device-notices.tsx';
import { TemporaryCodeNotices } from './codes/temporary-code-notices.tsx';
import { ScreenTitle } from './device-shell.tsx';
import { NotificationsPanel } from './notifications-panel.tsx';
import { RemoveDeviceSection } from './remove-device-section.tsx';
import { useDeviceEvents } from './use-device-events.ts';

/** Where this device stands, in the words its screens use. */
export type DeviceView = 'waiting' | 'approved' | 'rejected' | 'disabled' | 'deleted';

export function deviceView(state: DeviceState): DeviceView {
  if (state.RequestStatus === 'Pending') return 'waiting';
  if (state.RequestStatus === 'Rejected') return 'rejected';
  if (state.PushMessageUserStatus === PushUserStatusCode.Disabled) return 'disabled';
  if (state.PushMessageUserStatus === PushUserStatusCode.Deleted) return 'deleted';
  return 'approved';
}

const CHANGE_SPOKEN: Record<DeviceView, string> = {
  waiting: 'Waiting for approval.',
  approved: 'Approved: sign-in codes now come to this device.',
  rejected: 'Your request was rejected.',
  disabled: 'This device was disabled: no codes come to it.',
  deleted: 'This device was removed.',
};

export interface DeviceScreenProps {
  credential: DeviceCredential;
  /** An enrolment link opened on a phone that is already registered: not used, and the person is told. */
  unusedEnrollmentCode: string | null;
  onDismissEnrollmentCode: () => void;
}

/** A registered device: waiting, approved (notifications and codes), or why it gets no codes. */
export function DeviceScreen({ credential, unusedEnrollmentCode, onDismissEnrollmentCode }: DeviceScreenProps) {
  const queryClient = useQueryClient();
  const [ended, setEnded] = useState<ApiError | null>(null);
  useEffect(() => onDeviceCredentialEnded(setEnded), []);
  const { live } = useDeviceEvents(credential, ended === null);
  const state = useQuery({
    ...deviceQueries.state(credential),
    enabled: ended === null,
    refetchInterval: live ? false : DEVICE_POLL_MS,
  });
  const view = state.data ? deviceView(state.data) : null;

  // A change that arrives while the page is open is spoken; the first state shown is the page itself.
  const previous = useRef<DeviceView | null>(null);
  useEffect(() => {
    if (view && previous.current && previous.current !== view) announce(CHANGE_SPOKEN[view]);
    previous.current = view;
  }, [view]);

  function registerAgain() {
    void unsubscribeFromPush().catch(() => undefined);
    queryClient.removeQueries({ queryKey: deviceQueries.all });
    deviceCredentialStore.set(null);
  }

  const credentialEnded = ended ?? (isApiError(state.error) && state.error.status === 401 ? state.error : null);
  if (credentialEnded) {
    return (
      <>
        <ScreenTitle>This device is no longer registered</ScreenTitle>
        <Text mb="md">
          The service no longer accepts this device: it was removed, or your account was disabled. Codes do not come
          here any more.
        </Text>
        <Text mb="lg">Register it again, or ask your administrator if you cannot sign in.</Text>
        <RegisterAgainButton onClick={registerAgain} />
      </>
    );
  }
  if (state.isPending) {
    return (
      <Group gap="sm" role="status" mt="xl">
        <Loader size="sm" />
        <Text>Checking this device…</Text>
      </Group>
    );
  }
  if (state.isError) {
    return <InlineError error={state.error} onRetry={() => void state.refetch()} about="This device" />;
  }

  const device = state.data;
  const linkNotice = unusedEnrollmentCode && (view === 'waiting' || view === 'approved' || view === 'disabled') && (
    <Alert color="yellow" icon={<IconInfoCircle />} title="This phone is already registered" mb="lg">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          The registration link you opened was not used. To register this phone again, remove this device first (at the
          bottom of this page), then open a new link.
        </Text>
        <Button size="xs" variant="default" onClick={onDismissEnrollmentCode}>
          OK
        </Button>
      </Stack>
    </Alert>
  );

  switch (view) {
    case 'waiting':
      return (
        <>
          {linkNotice}
          <ScreenTitle>Waiting for approval</ScreenTitle>
          <Text mb="md">
            Your request to use this {device.DeviceType} device for {device.UserName} is in the administrators’ queue as
            request {device.AuthorizationRequestId}.
          </Text>
          <Group gap="sm" mb="xl" wrap="nowrap">
            <Loader size="sm" aria-hidden />
            <Text size="sm" c="dimmed">
              This page changes by itself when they decide; you can close it and come back.
            </Text>
          </Group>
          <RemoveDeviceSection pending />
        </>
      );
    case 'approved':
      return (
        <>
          {linkNotice}
          <ScreenTitle>Approved</ScreenTitle>
          <Text mb="lg">
            Sign-in codes for {device.UserName} come to this {device.DeviceType} device.
          </Text>
          <Stack gap="xl">
            <NewDeviceNotices credential={credential} live={live} />
            <TemporaryCodeNotices credential={credential} live={live} />
            <NotificationsPanel credential={credential} device={device} />
            <CodeInbox credential={credential} live={live} />
            <RemoveDeviceSection />
          </Stack>
        </>
      );
    case 'rejected':
      return (
        <>
          <ScreenTitle>Request rejected</ScreenTitle>
          <Text mb="md">An administrator rejected this device for {device.UserName}, so no codes come to it.</Text>
          {device.Comment && (
            <Alert color="gray" title="Their comment" mb="md">
              {device.Comment}
            </Alert>
          )}
          <Text mb="lg">Ask your administrator why, or register this device again.</Text>
          <RegisterAgainButton onClick={registerAgain} />
        </>
      );
    case 'disabled':
      return (
        <>
          {linkNotice}
          <ScreenTitle>This device is disabled</ScreenTitle>
          <Text mb="md">
            An administrator disabled this device for {device.UserName}: no sign-in codes come to it while it is
            disabled.
          </Text>
          <Text mb="xl">Ask your administrator or helpdesk to enable it again; this page changes when they do.</Text>
          <RemoveDeviceSection />
        </>
      );
    default:
      return (
        <>
          <ScreenTitle>This device was removed</ScreenTitle>
          <Text mb="lg">It no longer receives codes for {device.UserName}. Register it again to use it.</Text>
          <RegisterAgainButton onClick={registerAgain} />
        </>
      );
  }
}

function RegisterAgainButton({ onClick }: { onClick: () => void }) {
  return (
    <Button h={TOUCH_TARGET} fullWidth onClick={onClick}>
      Register again
    </Button>
  );
}
