import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { describeError } from '../../api/core/describe-error.ts';
import { problemFieldError } from '../../api/field-problem.ts';
import { useChangeOwnPassword, useSignOutEverywhere } from '../../api/queries/account-queries.ts';
import { forgetUserData } from '../../api/queries/system-queries.ts';
import { NewPasswordInput } from '../../entities/account/new-password-input.tsx';
import { AddDeviceDialog } from '../../entities/device/add-device-dialog.tsx';
import { notify } from '../../lib/notify.ts';
import { sessionStore } from '../../session/session-store.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';

export type OwnAccountDialog = 'add-device' | 'change-password' | 'sign-out-everywhere' | null;

/** The user menu's dialogs about one's own account: add a device, change password, sign out everywhere. */
export function OwnAccountDialogs({ dialog, onClose }: { dialog: OwnAccountDialog; onClose: () => void }) {
  if (dialog === 'add-device') return <AddDeviceDialog onClose={onClose} />;
  if (dialog === 'change-password') return <ChangePasswordDialog onClose={onClose} />;
  if (dialog === 'sign-out-everywhere') return <SignOutEverywhereDialog onClose={onClose} />;
  return null;
}

const PASSWORD_WORDS = { labels: { OldPassword: 'Current password', NewPassword: 'New password' } };
const fieldError = (error: unknown, path: 'OldPassword' | 'NewPassword') =>
  problemFieldError(error, path, PASSWORD_WORDS);

function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const change = useChangeOwnPassword();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const mismatch = repeat.length > 0 && repeat !== newPassword;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          notify({ title: 'Password changed', message: 'Your other sessions were signed out; this one goes on.' });
          onClose();
        },
      },
    );
  }
  const oldError = fieldError(change.error, 'OldPassword');
  const newError = fieldError(change.error, 'NewPassword');
  const other = change.error && !oldError && !newError ? describeError(change.error) : null;

  return (
    <Modal opened onClose={onClose} title="Change your password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            data-autofocus
            value={oldPassword}
            error={oldError}
            onChange={(event) => setOldPassword(event.currentTarget.value)}
          />
          <NewPasswordInput
            label="New password"
            hint="A few unrelated words work well."
            value={newPassword}
            error={newError}
            onChange={(event) => setNewPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label="New password again"
            autoComplete="new-password"
            required
            value={repeat}
            error={mismatch ? 'Does not match the new password' : undefined}
            onChange={(event) => setRepeat(event.currentTarget.value)}
          />
          <ProblemAlert error={other ? change.error : null} />
          <DialogActions
            onCancel={onClose}
            confirmLabel="Change password"
            loading={change.isPending}
            disabled={!oldPassword || !newPassword || repeat !== newPassword}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function SignOutEverywhereDialog({ onClose }: { onClose: () => void }) {
  const signOut = useSignOutEverywhere();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <Modal opened onClose={onClose} title="Sign out everywhere?">
      <Text size="sm" mb="md">
        Every one of your sessions ends: this browser, other browsers and any client using your account. Use it when you
        left a session open somewhere or think someone else used your account.
      </Text>
      <ProblemAlert error={signOut.error} mb="md" />
      <DialogActions
        onCancel={onClose}
        confirmLabel="Sign out everywhere"
        danger
        loading={signOut.isPending}
        onConfirm={() =>
          signOut.mutate(undefined, {
            onSuccess: () => {
              sessionStore.set(null);
              forgetUserData(queryClient);
              notify({ title: 'Signed out everywhere', message: 'All of your sessions were ended.' });
              void navigate({ to: '/login' });
            },
          })
        }
      />
    </Modal>
  );
}
