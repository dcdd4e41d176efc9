// The dialog's styles come with its code (the page's own are in device/main.tsx).
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Alert, Button, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../../api/core/describe-error.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  loading: boolean;
  error: unknown;
}

/**
 * A question before something that cannot be undone. Loaded when first needed (confirm-dialog-host.tsx): the dialog machinery is not part of the page's first download.
 */
export default function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  loading,
  error,
}: ConfirmDialogProps) {
  return (
    <Modal opened onClose={onCancel} title={title} size="md">
      <Stack gap="md">
        {children}
        {error !== null && error !== undefined && (
          <Alert color="red" title={describeError(error).title} role="alert">
            {describeError(error).message}
          </Alert>
        )}
        <Stack gap="sm">
          <Button color="red.9" h={TOUCH_TARGET} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          {/* The harmless choice has focus first. */}
          <Button variant="default" h={TOUCH_TARGET} onClick={onCancel} data-autofocus>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Modal>
  );
}
