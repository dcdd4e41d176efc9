import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconCircleCheck, IconDeviceMobileMessage, IconInfoCircle } from '@tabler/icons-react';
import {
  CODE_WINDOW_MINUTES,
  DEVICE_APP_PATH,
  type Instruction,
  type InstructionKind,
  MAX_CODES_PER_WINDOW,
  parseTimestamp,
} from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useCreateInstruction } from '../../api/queries/mutations.ts';
import { formatClock } from '../../lib/time/time-format.ts';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { SendCodeIntro, TRY_INSTRUCTION_NAME } from './two-factor-outline.tsx';

export interface SendCodePanelProps {
  /** The token form's kind: the instruction is made scheduled or not to match it. */
  kind: InstructionKind;
  /** The instruction was made: the form takes its Id. */
  onCreated: (instruction: Instruction) => void;
  /** The instruction the token form last authenticated: its sent code is used, not waiting. */
  authenticated?: { kind: InstructionKind; id: number } | null;
}

/**
 * "Send me a code": makes a real instruction that needs two-factor, whose code goes to the person's Active devices,
 * so they can try the whole loop from here.
 */
export function SendCodePanel({ kind, onCreated, authenticated }: SendCodePanelProps) {
  const create = useCreateInstruction();
  const scheduled = kind === 'scheduled';

  const error = create.error;
  const noDevice = isApiError(error) && error.kind === 'no-active-device';
  const tooMany = isApiError(error) && error.kind === 'too-many-requests';
  const created = create.data;
  const used =
    created !== undefined &&
    authenticated?.id === created.Id &&
    (authenticated.kind === 'scheduled') === created.Scheduled;
  const expires = created?.TokenExpiresTimestampUtc ? parseTimestamp(created.TokenExpiresTimestampUtc) : null;

  return (
    <section aria-labelledby="send-code-title">
      <SendCodeIntro kind={kind} />
      <Stack gap="sm">
        <Button
          variant="light"
          leftSection={<IconDeviceMobileMessage size={16} />}
          loading={create.isPending}
          onClick={() =>
            create.mutate(
              { Name: TRY_INSTRUCTION_NAME, Scheduled: scheduled },
              { onSuccess: (instruction) => onCreated(instruction) },
            )
          }
          w="fit-content"
        >
          Send me a code
        </Button>
        {created && used && !create.isPending && !error && (
          <Alert
            color="gray"
            icon={<IconCircleCheck />}
            title="Code used"
            role="status"
            data-testid="code-used"
            styles={READABLE_TITLE}
          >
            {created.Scheduled ? 'Scheduled instruction' : 'Instruction'} {created.Id} is authenticated with its code.
            Send another to try again.
          </Alert>
        )}
        {created && !used && !create.isPending && !error && (
          <Alert color="green" icon={<IconCircleCheck />} title="Code sent" role="status" styles={READABLE_TITLE}>
            {created.Scheduled ? 'Scheduled instruction' : 'Instruction'}{' '}
            <strong data-testid="created-instruction-id">{created.Id}</strong> is waiting for its code, sent to{' '}
            {created.DevicesNotified} {created.DevicesNotified === 1 ? 'device' : 'devices'}
            {expires ? `; it works until ${formatClock(expires)}` : ''}. Type the code your phone shows.
          </Alert>
        )}
        {noDevice && (
          <Alert color="yellow" icon={<IconInfoCircle />} title="No active device" role="alert" styles={READABLE_TITLE}>
            Codes go to your approved devices, and you have none yet. Open the device app at{' '}
            <Anchor href={DEVICE_APP_PATH} target="_blank" rel="noopener">
              {window.location.origin}
              {DEVICE_APP_PATH}
            </Anchor>{' '}
            on your phone, register it, and have an administrator approve it.
          </Alert>
        )}
        {tooMany && (
          <Alert color="yellow" icon={<IconInfoCircle />} title="Too many codes" role="alert" styles={READABLE_TITLE}>
            At most {MAX_CODES_PER_WINDOW} codes are sent to you in {CODE_WINDOW_MINUTES} minutes, against anyone
            flooding your phone.{' '}
            {error.retryAfterSeconds !== undefined
              ? `Try again in ${Math.ceil(error.retryAfterSeconds / 60)} ${Math.ceil(error.retryAfterSeconds / 60) === 1 ? 'minute' : 'minutes'} (${error.retryAfterSeconds} seconds).`
              : 'Try again in a few minutes.'}
          </Alert>
        )}
        {error && !noDevice && !tooMany && (
          <Alert color="red" icon={<IconInfoCircle />} title={describeError(error).title} role="alert">
            {describeError(error).message}
          </Alert>
        )}
      </Stack>
    </section>
  );
}
