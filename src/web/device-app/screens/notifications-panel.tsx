import { Alert, Button, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBellOff, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import type { DeviceState, PushSubscriptionInput } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { announce } from '../../lib/announce.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import type { DeviceCredential } from '../connection/device-credential.ts';
import { deviceQueries, useForgetPushSubscription, useSavePushSubscription } from '../connection/device-queries.ts';
import { currentPushSubscription, pushSupport, subscribeToPush, unsubscribeFromPush } from '../connection/web-push.ts';

/** The browser's subscription as the service takes it (the contract checks it before it is sent). */
function subscriptionInput(json: PushSubscriptionJSON): PushSubscriptionInput {
  return {
    endpoint: json.endpoint ?? '',
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  };
}

function currentPermission(): NotificationPermission {
  return 'Notification' in window ? Notification.permission : 'default';
}

/**
 * "Turn on notifications": permission and subscription are asked for only from the person's tap (browsers refuse a
 * prompt nothing started). On every open the browser's subscription is compared with the one the service holds: a
 * browser that dropped or renewed it (cleared site data, a new key) is offered to turn them on again.
 */
export function NotificationsPanel({ credential, device }: { credential: DeviceCredential; device: DeviceState }) {
  const support = useMemo(() => pushSupport(), []);
  const pushKey = useQuery({ ...deviceQueries.pushKey(), enabled: support === 'supported' });
  const save = useSavePushSubscription(credential);
  const forget = useForgetPushSubscription(credential);
  const [permission, setPermission] = useState(currentPermission);
  // undefined while the browser is asked; null when it has no subscription.
  const [browserEndpoint, setBrowserEndpoint] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);

  useEffect(() => {
    if (support !== 'supported') return;
    let current = true;
    currentPushSubscription()
      .then((subscription) => current && setBrowserEndpoint(subscription?.endpoint ?? null))
      .catch(() => current && setBrowserEndpoint(null));
    return () => {
      current = false;
    };
  }, [support]);

  async function turnOn(publicKey: string) {
    setBusy(true);
    setProblem(null);
    try {
      const { permission: answer, subscription } = await subscribeToPush(publicKey);
      setPermission(answer);
      if (!subscription) return;
      await save.mutateAsync(subscriptionInput(subscription));
      setBrowserEndpoint(subscription.endpoint ?? null);
      announce('Notifications are on: a new code shows on this phone at once.');
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setProblem(null);
    try {
      await unsubscribeFromPush();
      await forget.mutateAsync();
      setBrowserEndpoint(null);
      announce('Notifications are off. Codes still show on this page.');
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  let body: ReactNode;
  if (support === 'home-screen-needed') {
    body = (
      <>
        <Text size="sm" mb="xs">
          On an iPhone or iPad, notifications work once this page is on your Home Screen:
        </Text>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>Tap the Share button in Safari’s toolbar.</List.Item>
          <List.Item>Choose “Add to Home Screen”, then “Add”.</List.Item>
          <List.Item>Open Tachyon from your Home Screen and turn notifications on there.</List.Item>
        </List>
        <Text size="sm" c="dimmed" mt="xs">
          Until then, codes show on this page while it is open.
        </Text>
      </>
    );
  } else if (support === 'unsupported') {
    body = <Text size="sm">This browser cannot show notifications. Codes show on this page while it is open.</Text>;
  } else if (pushKey.isPending || browserEndpoint === undefined) {
    body = (
      <Text size="sm" c="dimmed" role="status">
        <Loader size="xs" mr="xs" aria-hidden />
        Checking notifications…
      </Text>
    );
  } else if (pushKey.isError) {
    body = (
      <Text size="sm" c="dimmed">
        Cannot tell whether notifications work ({describeError(pushKey.error).message}). Codes still show on this page.
      </Text>
    );
  } else if (!pushKey.data.WebPushEnabled) {
    body = (
      <Alert color="gray" icon={<IconBellOff />} title="Notifications are off on this service">
        {/* The service's Reason names its settings, for whoever runs it: never shown to the person holding the phone. */}
        Codes still arrive on this page: open it when you sign in. If you expected notifications, tell your helpdesk.
      </Alert>
    );
  } else if (permission === 'denied') {
    body = (
      <Alert color="yellow" icon={<IconBellOff />} title="Notifications are blocked">
        This browser blocks notifications from this site. Allow them in the browser’s site settings, then come back to
        this page. Codes still show here meanwhile.
      </Alert>
    );
  } else {
    const publicKey = pushKey.data.PublicKey;
    const on = browserEndpoint !== null && browserEndpoint === device.PushEndpoint;
    const differ = !on && (browserEndpoint !== null || device.PushEndpoint !== null);
    body = on ? (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          <IconBell size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} /> Notifications are on: a new code
          shows on this phone at once, even when this page is closed.
        </Text>
        <Button variant="default" loading={busy} onClick={() => void turnOff()}>
          Turn off notifications
        </Button>
      </Stack>
    ) : (
      <Stack gap="sm">
        <Text size="sm">
          {differ
            ? 'Notifications stopped working on this phone (the browser renewed or dropped them). Turn them on again to get codes at once.'
            : 'Get a notification the moment a code arrives, even when this page is closed. Your browser asks to allow them.'}
        </Text>
        <Button
          h={TOUCH_TARGET}
          fullWidth
          leftSection={<IconBell size={18} />}
          loading={busy}
          onClick={() => void turnOn(publicKey)}
        >
          {differ ? 'Turn notifications on again' : 'Turn on notifications'}
        </Button>
      </Stack>
    );
  }

  return (
    <Paper p="md" radius="md" component="section" aria-labelledby="device-notifications">
      <Title order={2} fz="lg" mb="sm" id="device-notifications">
        Notifications
      </Title>
      {body}
      {problem !== null && (
        <Alert color="red" icon={<IconInfoCircle />} title={describeError(problem).title} role="alert" mt="sm">
          {describeError(problem).message}
        </Alert>
      )}
    </Paper>
  );
}
