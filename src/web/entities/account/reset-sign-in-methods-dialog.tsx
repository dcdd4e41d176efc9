import { Modal, Text } from '@mantine/core';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';

export interface ResetSignInMethodsDialogProps {
  userName: string;
  error: unknown;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** The reset's confirmation: what goes, what stays, and why it may fail. */
export function ResetSignInMethodsDialog({
  userName,
  error,
  pending,
  onClose,
  onConfirm,
}: ResetSignInMethodsDialogProps) {
  return (
    <Modal opened onClose={onClose} title={`Reset the sign-in methods of ${userName}?`}>
      <Text size="sm" mb="md">
        Their passkeys, recovery codes and devices are removed and their sessions end: a removed phone gets no more
        codes until it is enrolled and approved again. Their password stays. They add a new second factor at their next
        sign-in.
      </Text>
      <ProblemAlert error={error} mb="sm" />
      <DialogActions
        onCancel={onClose}
        confirmLabel="Reset sign-in methods"
        danger
        loading={pending}
        onConfirm={onConfirm}
      />
    </Modal>
  );
}
