import { Button, Code, CopyButton, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PASSKEY_NAME_MAX, type Passkey } from '../../../shared/contract/index.ts';
import { passkeyCancelled, registerPasskey } from '../../api/passkey-ceremonies.ts';
import { removePasskey, renamePasskey } from '../../api/queries/sign-in-method-queries.ts';
import { notify } from '../../lib/notify.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';

// The Sign-in methods page's dialogs, loaded when one is first opened: Modal and its focus trap, the passkey
// ceremony and the dialogs' own code are not on the page's first load.

/** A name a person recognises their passkey by, from the browser they add it in. */
function suggestedName(): string {
  const agent = globalThis.navigator?.userAgent ?? '';
  const platform = /iPhone|iPad/.test(agent)
    ? 'iPhone'
    : /Android/.test(agent)
      ? 'Android phone'
      : /Mac/.test(agent)
        ? 'Mac'
        : /Windows/.test(agent)
          ? 'Windows PC'
          : /Linux/.test(agent)
            ? 'Linux computer'
            : 'Passkey';
  return platform;
}

export function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (passkey: Passkey) => void }) {
  const [name, setName] = useState(suggestedName);
  const add = useMutation({ mutationFn: registerPasskey, onSuccess: onAdded });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) add.mutate(name.trim());
  }
  const error = add.error && !passkeyCancelled(add.error) ? add.error : null;
  return (
    <Modal opened onClose={onClose} title="Add a passkey">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">Your browser asks where to keep it: this device, a phone or a security key.</Text>
          <TextInput
            label="Name"
            description="How you will recognise it"
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            required
            data-autofocus
            onChange={(event) => setName(event.currentTarget.value)}
          />
          {add.error && passkeyCancelled(add.error) && (
            <Text size="sm" c="dimmed">
              The browser's prompt was closed; nothing was added.
            </Text>
          )}
          <ProblemAlert error={error} />
          <DialogActions
            onCancel={onClose}
            confirmLabel="Add a passkey"
            loading={add.isPending}
            disabled={!name.trim()}
          />
        </Stack>
      </form>
    </Modal>
  );
}

export function RenameDialog({
  passkey,
  onClose,
  onDone,
}: {
  passkey: Passkey;
  onClose: () => void;
  onDone: () => void;
}) {
  const [name, setName] = useState(passkey.Name);
  const rename = useMutation({
    ...renamePasskey,
    onSuccess: () => {
      onDone();
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Rename “${passkey.Name}”`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) rename.mutate({ id: passkey.Id, name: name.trim() });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            required
            data-autofocus
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <ProblemAlert error={rename.error} />
          <DialogActions onCancel={onClose} confirmLabel="Rename" loading={rename.isPending} disabled={!name.trim()} />
        </Stack>
      </form>
    </Modal>
  );
}

export function RemoveDialog({
  passkey,
  last,
  onClose,
  onDone,
}: {
  passkey: Passkey;
  last: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const remove = useMutation({
    ...removePasskey,
    onSuccess: () => {
      notify({ title: 'Passkey removed', message: `“${passkey.Name}” no longer signs you in.` });
      onDone();
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Remove “${passkey.Name}”?`}>
      <Stack gap="sm">
        <Text size="sm">
          It will no longer sign you in.
          {last ? ' It is your last passkey: you will be asked to confirm it is you first.' : ''}
        </Text>
        <ProblemAlert error={remove.error} />
        <DialogActions
          onCancel={onClose}
          confirmLabel="Remove"
          danger
          loading={remove.isPending}
          onConfirm={() => remove.mutate(passkey.Id)}
        />
      </Stack>
    </Modal>
  );
}

export function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title="Your recovery codes" closeOnClickOutside={false}>
      <Stack gap="sm">
        <Text size="sm">
          Keep these {codes.length} codes somewhere safe, apart from your devices: each signs you in once when your
          passkey and devices are out of reach. They are shown only now; earlier codes no longer work.
        </Text>
        <List spacing={4} ff="monospace" aria-label="Recovery codes" listStyleType="none">
          {codes.map((code) => (
            <List.Item key={code}>
              <Code fz="md">{code}</Code>
            </List.Item>
          ))}
        </List>
        <Group justify="space-between">
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy all'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>I have saved them</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
