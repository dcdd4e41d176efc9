import type { NotificationData } from '@mantine/notifications';

/**
 * Shows a toast. `@mantine/notifications` is imported on demand: one static import of it would put the toast host
 * (transitions, drag to dismiss: ~9 KB gzip) into that page's first download, although the host itself only loads
 * after the first screen (see lazy-hosts.tsx). The store queues toasts shown before the host mounts.
 */
export function notify(notification: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(notification));
}
