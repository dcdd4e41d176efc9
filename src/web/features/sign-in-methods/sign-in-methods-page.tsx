import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconFingerprint, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { type Passkey, RECOVERY_CODES_LOW } from '../../../shared/contract/index.ts';
import { safeRedirect } from '../../../shared/safe-redirect.ts';
import { newRecoveryCodes, signInMethodQueries } from '../../api/queries/sign-in-method-queries.ts';
import { PasskeyAddressNote, passkeysWorkHere } from '../../entities/second-factor/passkey-address-note.tsx';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { ErrorState } from '../../ui/states/error-state.tsx';
import { LoadingState } from '../../ui/states/loading-state.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { SIGN_IN_METHODS_DESCRIPTION, SIGN_IN_METHODS_TITLE } from './sign-in-methods-outline.tsx';

// Each dialog is loaded when it is first opened (Modal, its focus trap and Floating UI are on no first load).
const dialogs = () => import('./sign-in-method-dialogs.tsx');
const AddPasskeyDialog = lazy(() => dialogs().then((module) => ({ default: module.AddPasskeyDialog })));
const RenameDialog = lazy(() => dialogs().then((module) => ({ default: module.RenameDialog })));
const RemoveDialog = lazy(() => dialogs().then((module) => ({ default: module.RemoveDialog })));
const RecoveryCodesDialog = lazy(() => dialogs().then((module) => ({ default: module.RecoveryCodesDialog })));
const AddDeviceDialog = lazy(() =>
  import('../../entities/device/add-device-dialog.tsx').then((module) => ({ default: module.AddDeviceDialog })),
);

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

  const data = methods.data;

  return (
    <>
      <PageHeader title={SIGN_IN_METHODS_TITLE} description={SIGN_IN_METHODS_DESCRIPTION} />
      <Stack gap="lg">
        {enrolling && (
          <Alert color="orange" icon={<IconAlertTriangle />} title="Add a second factor to continue">
            Your permissions need a second factor after the password. Add a passkey (best), a device, or recovery codes;
            then you go on to where you were going.
          </Alert>
        )}
        {/*
          Whether this address can have passkeys is known from the address alone: said with the header, before the
          methods arrive (at an IP address it is a phone's largest text). A reason the service gives takes its place.
        */}
        {data?.PasskeysUnavailable ? (
          <Alert color="yellow" icon={<IconAlertTriangle />} title="Passkeys do not work at this address">
            {data.PasskeysUnavailable}
          </Alert>
        ) : (
          <PasskeyAddressNote />
        )}
        {data === undefined &&
          (methods.isError ? (
            <ErrorState error={methods.error} onRetry={() => void methods.refetch()} />
          ) : (
            <LoadingState label="Loading your sign-in methods…" />
          ))}
        {data && (
          <>
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
                <Stack
                  gap="xs"
                  component="ul"
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                  aria-label="Passkeys"
                >
                  {data.Passkeys.map((passkey) => (
                    <PasskeyRow
                      key={passkey.Id}
                      passkey={passkey}
                      last={data.Passkeys.length === 1}
                      onChange={refresh}
                    />
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
          </>
        )}
      </Stack>
      <Suspense fallback={null}>
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
      </Suspense>
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
      <Suspense fallback={null}>
        {renaming && <RenameDialog passkey={passkey} onClose={() => setRenaming(false)} onDone={onChange} />}
        {removing && (
          <RemoveDialog passkey={passkey} last={last} onClose={() => setRemoving(false)} onDone={onChange} />
        )}
      </Suspense>
    </li>
  );
}
