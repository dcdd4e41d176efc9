import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { whenModalsHostMounted } from '../../lib/modals-host.ts';
import { focusedElement, giveFocusBack } from '../../lib/use-focus-return.ts';
import { isPhone, sheetProps } from '../../lib/use-phone.ts';

export interface Confirmation {
  title: string;
  children: ReactNode;
  confirm: string;
  /** Stops something for the person (a device, their sessions, their account): painted red. */
  destructive?: boolean;
  onConfirm: () => void;
}

/**
 * Asks before an action on a person or their report, naming what it does. The modals package loads on demand, as the push users'
 * Delete confirmation does (components/use-change-status.tsx); focus returns where it was.
 */
export function confirmAction({ title, children, confirm, destructive = true, onConfirm }: Confirmation): void {
  const opener = focusedElement();
  void Promise.all([import('@mantine/modals'), whenModalsHostMounted()]).then(([{ modals }]) =>
    modals.openConfirmModal({
      title: <Text fw={650}>{title}</Text>,
      children: <Text size="sm">{children}</Text>,
      labels: { confirm, cancel: 'Cancel' },
      // red.9: white on the default red misses AA contrast.
      confirmProps: destructive ? { color: 'red.9' } : {},
      ...sheetProps(isPhone()),
      onConfirm,
      returnFocus: false,
      onClose: () => giveFocusBack(opener),
    }),
  );
}
