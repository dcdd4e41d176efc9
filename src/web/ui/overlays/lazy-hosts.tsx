import { lazy, Suspense, useEffect } from 'react';
import { useAfterFirstPaint } from '../../lib/loading/use-after-first-paint.ts';
import { modalsHostMounted } from '../../lib/modals-host.ts';
import { isPhone } from '../../lib/use-phone.ts';

// Toasts and confirmation dialogs are not needed to paint the first screen: their hosts (and the transition and
// focus-trap code they bring) load once it is committed. `notifications.show` talks to its host through a store, so
// toasts shown before the host arrives appear when it mounts; `modals.open*` are window events, so callers wait for the
// modals host (lib/modals-host.ts).
const NotificationsHost = lazy(() =>
  import('@mantine/notifications').then(({ Notifications }) => ({
    // Bottom left: over the navigation's empty foot, clear of the header's controls and of a drawer's title on the
    // right; at the bottom of a phone's screen, under the header and the bulk bar.
    default: () => <Notifications position={isPhone() ? 'bottom-center' : 'bottom-left'} />,
  })),
);
const ModalsHost = lazy(() =>
  import('@mantine/modals').then(({ ModalsProvider }) => ({
    default: function ModalsHost() {
      // Runs after ModalsProvider's own effects, which subscribe it to the window events.
      useEffect(modalsHostMounted, []);
      return <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }} />;
    },
  })),
);

export function LazyHosts() {
  const afterFirstPaint = useAfterFirstPaint();
  if (!afterFirstPaint) return null;
  // One boundary each, so the two load side by side rather than one after the other.
  return (
    <>
      <Suspense fallback={null}>
        <NotificationsHost />
      </Suspense>
      <Suspense fallback={null}>
        <ModalsHost />
      </Suspense>
    </>
  );
}
