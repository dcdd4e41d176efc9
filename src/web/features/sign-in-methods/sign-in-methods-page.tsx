import {
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconFingerprint, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { PASSKEY_NAME_MAX, type Passkey, RECOVERY_CODES_LOW } from '../../../shared/contract/index.ts';
import { safeRedirect } from '../../../shared/safe-redirect.ts';
import { passkeyCancelled, registerPasskey } from '../../api/passkey-ceremonies.ts';
import {
  newRecoveryCodes,
  removePasskey,
  renamePasskey,
  signInMethodQueries,
} from '../../api/queries/sign-in-method-queries.ts';
import { AddDeviceDialog } from '../../entities/device/add-device-dialog.tsx';
import { PasskeyAddressNote, passkeysWorkHere } from '../../entities/second-factor/passkey-address-note.tsx';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { ErrorState } from '../../ui/states/error-state.tsx';
import { LoadingState } from '../../ui/states/loading-state.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';

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

/** The person's own sign-in methods: passkeys, recovery codes and devices. `redirect`: where to go once enrolled. */
export function SignInMethodsPage({ redirectTo }: { redirectTo: string | undefined }) {
  const { session, enrolled } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const methods = useQuery(signInMethodQueries.own());
  const enrolling = session?.enrolmentRequired === true;
  const [codes, setCodes] = useState<string[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [addingDevice, setAddingDevice] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: signInMethodQueries.all });

  /** The first method of a session that could only add one: on to where the person was going. */
  function afterAdding() {
    void refresh();
    if (!enrolling) return;
    enrolled();
    if (codes === null) void navigate({ href: safeRedirect(redirectTo), replace: true });
  }

  const generate = useMutation({
    ...newRecoveryCodes,
    onSuccess: (result) => {
      setCodes(result.Codes);
      void refresh();
      if (enrolling) enrolled();
    },
  });

  if (methods.isPending) return <LoadingState label="Loading your sign-in methods…" />;
  if (methods.isError) return <ErrorState error={methods.error} onRetry={() => void methods.refetch()} />;
  const data = methods.data;

  return (
    <>
      <PageHeader
        title="Sign-in methods"
        description="How you prove it is you: passkeys, recovery codes and your devices. Nobody else can see or choose them."
      />
      <Stack gap="lg">
        {enrolling && (
          <Alert color="orange" icon={<IconAlertTriangle />} title="Add a second factor to continue">
            Your permissions need a second factor after the password. Add a passkey (best), a device, or recovery codes;
            then you go on to where you were going.
          </Alert>
        )}
        {data.PasskeysUnavailable === null && <PasskeyAddressNote />}
        {data.PasskeysUnavailable && (
          <Alert color="yellow" icon={<IconAlertTriangle />} title="Passkeys do not work at this address">
            {data.PasskeysUnavailable}
          </Alert>
        )}
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm" wrap="wrap">
            <Stack gap={2}>
              <Title order={2} fz="lg">
                Passkeys
              </Title>
              <Text size="sm" c="dimmed">
                Sign in with one tap and your fingerprint, face or PIN; they cannot be phished.
              </Text>
            </Stack>
            <Button
              leftSection={<IconFingerprint size={18} />}
              onClick={() => setAdding(true)}
              disabled={data.PasskeysUnavailable !== null || !passkeysWorkHere()}
            >
              Add a passkey
            </Button>
          </Group>
          {data.Passkeys.length === 0 ? (
            <Text size="sm" c="dimmed">
              No passkeys yet.
            </Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Passkeys">
              {data.Passkeys.map((passkey) => (
                <PasskeyRow key={passkey.Id} passkey={passkey} last={data.Passkeys.length === 1} onChange={refresh} />
              ))}
            </Stack>
          )}
        </Card>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Card withBorder radius="md" padding="lg">
            <Title order={2} fz="lg" mb={4}>
              Recovery codes
            </Title>
            {/* Running low is said in the body text's colour (the page's contrast), marked by the icon's orange. */}
            <Group gap={6} wrap="nowrap" align="flex-start" mb="sm" data-testid="recovery-codes-left">
              {data.RecoveryCodesLeft <= RECOVERY_CODES_LOW && (
                <IconAlertTriangle
                  size={18}
                  color="var(--mantine-color-orange-8)"
                  aria-hidden
                  style={{ flexShrink: 0 }}
                />
              )}
              <Text size="sm" c={data.RecoveryCodesLeft <= RECOVERY_CODES_LOW ? undefined : 'dimmed'}>
                {data.RecoveryCodesLeft === 0
                  ? 'None yet. Each works once, when your passkey and devices are out of reach.'
                  : `${data.RecoveryCodesLeft} left.${data.RecoveryCodesLeft <= RECOVERY_CODES_LOW ? ' Make new ones soon.' : ''}`}
              </Text>
            </Group>
            <ProblemAlert error={generate.error} mb="sm" />
            <Button
              variant="default"
              leftSection={<IconKey size={18} />}
              loading={generate.isPending}
              onClick={() => generate.mutate()}
            >
              {data.RecoveryCodesLeft === 0 ? 'Make recovery codes' : 'Make new recovery codes'}
            </Button>
          </Card>
          <Card withBorder radius="md" padding="lg">
            <Title order={2} fz="lg" mb={4}>
              Devices
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {data.ActiveDevices === 0
                ? 'No active device. A device receives your codes once an administrator approves it.'
                : `${data.ActiveDevices} active device${data.ActiveDevices === 1 ? '' : 's'} receive${data.ActiveDevices === 1 ? 's' : ''} your codes.`}
            </Text>
            <Button variant="default" onClick={() => setAddingDevice(true)}>
              Add a device
            </Button>
          </Card>
        </SimpleGrid>
      </Stack>
      {adding && (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(passkey) => {
            setAdding(false);
            notify({ title: 'Passkey added', message: `“${passkey.Name}” signs you in from now on.` });
            afterAdding();
          }}
        />
      )}
      {addingDevice && <AddDeviceDialog onClose={() => setAddingDevice(false)} />}
      {codes && (
        <RecoveryCodesDialog
          codes={codes}
          onClose={() => {
            setCodes(null);
            if (enrolling || redirectTo) void navigate({ href: safeRedirect(redirectTo), replace: true });
          }}
        />
      )}
    </>
  );
}

function PasskeyRow({ passkey, last, onChange }: { passkey: Passkey; last: boolean; onChange: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const [removing, setRemoving] = useState(false);
  return (
    <li>
      <Group
        justify="space-between"
        wrap="wrap"
        gap="xs"
        py={6}
        style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      >
        <Stack gap={0}>
          <Text fw={600}>{passkey.Name}</Text>
          <Text size="xs" c="dimmed" component="div">
            Added <Timestamp value={passkey.CreatedUtc} size="xs" dimmed /> · last used{' '}
            {passkey.LastUsedUtc ? <Timestamp value={passkey.LastUsedUtc} size="xs" dimmed /> : 'never'}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={() => setRenaming(true)}
            aria-label={`Rename ${passkey.Name}`}
          >
            Rename
          </Button>
          <Button
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={() => setRemoving(true)}
            aria-label={`Remove ${passkey.Name}`}
          >
            Remove
          </Button>
        </Group>
      </Group>
      {renaming && <RenameDialog passkey={passkey} onClose={() => setRenaming(false)} onDone={onChange} />}
      {removing && <RemoveDialog passkey={passkey} last={last} onClose={() => setRemoving(false)} onDone={onChange} />}
    </li>
  );
}

function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (passkey: Passkey) => void }) {
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

function RenameDialog({ passkey, onClose, onDone }: { passkey: Passkey; onClose: () => void; onDone: () => void }) {
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

function RemoveDialog({
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

function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
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
