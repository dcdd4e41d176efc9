import { lazy, Suspense } from 'react';

// Toasts and confirmation dialogs are not needed to paint the first screen: their hosts (and the transition and
// focus-trap code they bring) load right after it. `notifications.show` and `modals.open*` talk to the hosts through
// a store and window events, so calls made before a host arrives are shown when it mounts.
const NotificationsHost = lazy(() =>
  import('@mantine/notifications').then(({ Notifications }) => ({
    default: () => <Notifications position="top-right" />,
  })),
);
const ModalsHost = lazy(() =>
  import('@mantine/modals').then(({ ModalsProvider }) => ({
    default: () => <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }} />,
  })),
);

export function LazyHosts() {
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
      <ModalsHost />
    </Suspense>
  );
}
