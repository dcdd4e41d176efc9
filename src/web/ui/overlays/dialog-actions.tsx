import { Button, Group } from '@mantine/core';

export interface DialogActionsProps {
  onCancel: () => void;
  confirmLabel: string;
  /** Without it the confirm button submits the dialog's form. */
  onConfirm?: () => void;
  loading?: boolean;
  disabled?: boolean;
  /** Ends sessions, disables or wipes: a red button (red.9, since white on the default red misses AA contrast). */
  danger?: boolean;
  mt?: string;
}

/** A dialog's Cancel and confirm buttons, right-aligned, confirm last. */
export function DialogActions({
  onCancel,
  confirmLabel,
  onConfirm,
  loading,
  disabled,
  danger,
  mt,
}: DialogActionsProps) {
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        color={danger ? 'red.9' : undefined}
        loading={loading}
        disabled={disabled}
        onClick={onConfirm}
      >
        {confirmLabel}
      </Button>
    </Group>
  );
}
