import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle, IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import {
  endpoints,
  type InstructionKind,
  TEMPORARY_CODE_DIGITS,
  tokenEndpointFor,
  unavailableReason,
} from '../../../shared/contract/index.ts';
import { useSubmitToken } from '../../api/queries/mutations.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import { useSession } from '../../session/session-context.tsx';
import { activeApiVersion } from '../../settings/resolve-version.ts';
import { tokenErrorMessage } from './token-messages.ts';

const TOKEN_LENGTH = 6;

export interface TokenFormProps {
  /** Prefilled from the URL (`?kind=&id=`); the token itself is always typed or pasted. */
  initialKind?: InstructionKind | undefined;
  initialId?: number | undefined;
  /** Told when the person picks the other kind (the page's "Send me a code" follows it). */
  onKindChange?: (kind: InstructionKind) => void;
  /** Told when a token authenticated its instruction (the page marks the sent code used). */
  onAuthenticated?: (kind: InstructionKind, id: number) => void;
}

export function TokenForm({ initialKind, initialId, onKindChange, onAuthenticated }: TokenFormProps = {}) {
  const { session } = useSession();
  const version = activeApiVersion(session);
  const scheduledMissing = unavailableReason(endpoints.submitScheduledInstructionToken, version);
  const usesObsolete = tokenEndpointFor('instruction', version) === endpoints.submitObsoleteToken;

  const [kind, setKind] = useState<InstructionKind>(
    initialKind === 'scheduled' && !scheduledMissing ? 'scheduled' : 'instruction',
  );
  const [idText, setIdText] = useState(initialId ? String(initialId) : '');
  const [token, setToken] = useState('');
  const [touched, setTouched] = useState(false);
  const mutation = useSubmitToken();
  const phone = usePhone();

  const id = Number(idText);
  const idError = !/^\d{1,15}$/.test(idText) || id < 1 ? 'Enter the instruction Id, a whole number' : null;
  // A pushed code, or a temporary code from the helpdesk in its place.
  const tokenError =
    token.length !== TOKEN_LENGTH && token.length !== TEMPORARY_CODE_DIGITS
      ? `Enter all ${TOKEN_LENGTH} digits of the token (${TEMPORARY_CODE_DIGITS} for a temporary code)`
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (idError || tokenError) return;
    mutation.mutate(
      { kind, id, token },
      {
        // The field empties for the next token without calling the empty field an error.
        onSuccess: () => {
          setToken('');
          setTouched(false);
          onAuthenticated?.(kind, id);
        },
      },
    );
  }

  const failure = mutation.isError
    ? tokenErrorMessage(mutation.error, mutation.variables.kind, mutation.variables.id)
    : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={6}>
          <Text size="sm" fw={500} id="token-kind-label">
            The token is for
          </Text>
          <SegmentedControl
            aria-labelledby="token-kind-label"
            value={kind}
            onChange={(value) => {
              setKind(value as InstructionKind);
              onKindChange?.(value as InstructionKind);
              mutation.reset();
            }}
            data={[
              { value: 'instruction', label: 'An instruction' },
              { value: 'scheduled', label: 'A scheduled instruction', disabled: scheduledMissing !== null },
            ]}
            // Two long labels side by side run past a phone's width: stacked there.
            orientation={phone ? 'vertical' : 'horizontal'}
            fullWidth={phone}
            w={phone ? '100%' : 'fit-content'}
          />
          {scheduledMissing && (
            <Text size="xs" c="dimmed">
              Scheduled instructions: {scheduledMissing}; you are using API {version}.
            </Text>
          )}
        </Stack>
        <TextInput
          label={kind === 'scheduled' ? 'Scheduled instruction Id' : 'Instruction Id'}
          description="Shown where the instruction was created."
          placeholder="e.g. 1042"
          inputMode="numeric"
          autoComplete="off"
          value={idText}
          onChange={(event) => setIdText(event.currentTarget.value.replace(/\D/g, ''))}
          error={touched && idError}
          w={{ base: '100%', xs: 320 }}
          required
        />
        <TextInput
          label="Token"
          description={`The ${TOKEN_LENGTH}-digit code pushed to your device, or a ${TEMPORARY_CODE_DIGITS}-digit temporary code from the helpdesk. Pasting works.`}
          placeholder="••••••"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus={initialId !== undefined}
          value={token}
          onChange={(event) => setToken(event.currentTarget.value.replace(/\D/g, '').slice(0, TEMPORARY_CODE_DIGITS))}
          error={touched && tokenError}
          w={{ base: '100%', xs: 320 }}
          required
          styles={{
            input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 22, letterSpacing: '0.4em' },
          }}
        />
        {failure && (
          <Alert color={failure.color} icon={<IconInfoCircle />} title={failure.title} role="alert">
            {failure.message}
          </Alert>
        )}
        {mutation.isSuccess && (
          <Alert
            color="green"
            icon={<IconCircleCheck />}
            title="Authenticated"
            role="status"
            // The light theme's green title on its green tint misses AA contrast.
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
          >
            {mutation.variables.kind === 'scheduled' ? 'Scheduled instruction' : 'Instruction'} {mutation.data.Id} is
            authenticated and can run.
          </Alert>
        )}
        <Group gap="sm">
          <Button
            type="submit"
            leftSection={<IconShieldLock size={16} />}
            loading={mutation.isPending}
            h={phone ? TOUCH_TARGET : undefined}
            fullWidth={phone}
          >
            Submit token
          </Button>
          {usesObsolete && (
            <Text size="xs" c="dimmed">
              API {version}: sent through the original token endpoint (obsolete since{' '}
              {endpoints.submitObsoleteToken.obsolete.since}).
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
