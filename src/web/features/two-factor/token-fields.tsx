import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { type InstructionKind, TEMPORARY_CODE_DIGITS } from '../../../shared/contract/index.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';

export const TOKEN_LENGTH = 6;

export interface TokenFieldsProps {
  kind: InstructionKind;
  onKindChange: (kind: InstructionKind) => void;
  /** Why a scheduled instruction's token cannot be sent with the API version in use, said under the choice. */
  scheduledUnavailable?: ReactNode;
  idText: string;
  onIdTextChange: (text: string) => void;
  idError?: string | null;
  token: string;
  onTokenChange: (token: string) => void;
  tokenError?: string | null;
  autoFocusToken?: boolean;
  pending?: boolean;
  /** The last submission's outcome, above the button. */
  outcome?: ReactNode;
  /** Beside the button. */
  note?: ReactNode;
}

/**
 * The token form as it is laid out, without its state: the form fills it in, and the page's outline in index.html draws
 * it empty before the app has run (scripts/page-outlines.render.tsx). Its phone layout is in CSS (Mantine's responsive
 * props at its xs breakpoint), not read in JavaScript, so both draw it alike at every width. (Not a CSS module: the
 * build renders the outline with Vite's module runner, whose CSS plugin cannot compile one.)
 */
export function TokenFields({
  kind,
  onKindChange,
  scheduledUnavailable,
  idText,
  onIdTextChange,
  idError,
  token,
  onTokenChange,
  tokenError,
  autoFocusToken,
  pending,
  outcome,
  note,
}: TokenFieldsProps) {
  const kindLabel = useId();
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text size="sm" fw={500} id={kindLabel}>
          The token is for
        </Text>
        <SegmentedControl
          aria-labelledby={kindLabel}
          value={kind}
          onChange={(value) => onKindChange(value as InstructionKind)}
          data={[
            { value: 'instruction', label: 'An instruction' },
            { value: 'scheduled', label: 'A scheduled instruction', disabled: Boolean(scheduledUnavailable) },
          ]}
          // Two long labels side by side run past a phone's width: stacked there (a grid of one column), in CSS
          // rather than read in JavaScript so the outline drawn at build time lays them out alike.
          display={{ base: 'grid', xs: 'inline-flex' }}
          w={{ base: '100%', xs: 'fit-content' }}
        />
        {scheduledUnavailable && (
          <Text size="xs" c="dimmed">
            {scheduledUnavailable}
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
        onChange={(event) => onIdTextChange(event.currentTarget.value)}
        error={idError}
        w={{ base: '100%', xs: 320 }}
        required
      />
      <TextInput
        label="Token"
        description={`The ${TOKEN_LENGTH}-digit code pushed to your device, or a ${TEMPORARY_CODE_DIGITS}-digit temporary code from the helpdesk. Pasting works.`}
        placeholder="••••••"
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus={autoFocusToken}
        value={token}
        onChange={(event) => onTokenChange(event.currentTarget.value)}
        error={tokenError}
        w={{ base: '100%', xs: 320 }}
        required
        styles={{
          input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 22, letterSpacing: '0.4em' },
        }}
      />
      {outcome}
      <Group gap="sm">
        <Button
          type="submit"
          leftSection={<IconShieldLock size={16} />}
          loading={pending}
          // A phone's full-width touch target; Mantine's own height and width from xs up.
          h={{ base: TOUCH_TARGET, xs: 'var(--button-height)' }}
          w={{ base: '100%', xs: 'auto' }}
        >
          Submit token
        </Button>
        {note}
      </Group>
    </Stack>
  );
}
