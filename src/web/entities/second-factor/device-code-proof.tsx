import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDeviceMobileMessage } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { type DeviceCodeSent, parseTimestamp } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useNow } from '../../lib/time/use-now.ts';

/** "Sent to Pixel 9", "Sent to Pixel 9 and 1 other", "Sent to Pixel 9 and 2 others". */
export function sentToText(devices: readonly string[]): string {
  const [first = 'your device', ...rest] = devices;
  if (rest.length === 0) return `Sent to ${first}.`;
  return `Sent to ${first} and ${rest.length} other${rest.length === 1 ? '' : 's'}.`;
}

/** Words for a refused device code: what the service said, under a title that names the state. */
function refusalText(error: unknown): { title: string; message: string } {
  if (isApiError(error) && error.kind === 'device-code-invalid') {
    return { title: 'Wrong code', message: error.detail ?? 'That is not the code sent to your devices.' };
  }
  if (isApiError(error) && error.kind === 'device-code-expired') {
    return { title: 'Code expired', message: error.detail ?? 'That code no longer works: send a new one.' };
  }
  return describeError(error);
}

/**
 * "Send a code to my phone": a code goes to the person's own Active devices (the device app shows it), and they type
 * it back here. Used by the second step after a password and by the step-up dialog; each says how to send and prove.
 */
export function DeviceCodeProof({
  send,
  prove,
  disabled = false,
  endsWithSignIn = false,
}: {
  send: () => Promise<DeviceCodeSent>;
  prove: (code: string) => Promise<unknown>;
  disabled?: boolean;
  /**
   * The code lasts only as long as the sign-in that asked for it (the second step's ticket), so once its time is up
   * a new code cannot help: the person starts over.
   */
  endsWithSignIn?: boolean;
}) {
  const [sent, setSent] = useState<DeviceCodeSent | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'sending' | 'proving' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const now = useNow();
  const expires = sent ? (parseTimestamp(sent.ExpiresUtc)?.getTime() ?? 0) : 0;
  const expired = sent !== null && now >= expires;

  async function sendCode() {
    setBusy('sending');
    setError(null);
    try {
      setSent(await send());
      setCode('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!typed) return;
    setBusy('proving');
    setError(null);
    try {
      await prove(typed);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  const text = error ? refusalText(error) : null;
  return (
    <Stack gap="xs">
      {sent === null ? (
        <Button
          variant="default"
          fullWidth
          leftSection={<IconDeviceMobileMessage size={18} />}
          loading={busy === 'sending'}
          disabled={disabled}
          onClick={() => void sendCode()}
        >
          Send a code to my phone
        </Button>
      ) : (
        <form onSubmit={(event) => void submit(event)}>
          <Stack gap="xs">
            <Text size="sm" role="status">
              {expired
                ? endsWithSignIn
                  ? 'This sign-in timed out, and the code sent to your phone with it. Start over to sign in.'
                  : 'The code sent to your phone has expired. Send a new one.'
                : `${sentToText(sent.Devices)} Open the Tachyon device app and type the 6-digit code it shows.`}
            </Text>
            <TextInput
              label="Code from your phone"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              data-autofocus
              autoFocus
            />
            <Group gap="xs" grow>
              <Button
                type="submit"
                disabled={!code.trim() || busy !== null || disabled || (expired && endsWithSignIn)}
                loading={busy === 'proving'}
              >
                Confirm the code
              </Button>
              {!(expired && endsWithSignIn) && (
                <Button variant="subtle" loading={busy === 'sending'} onClick={() => void sendCode()}>
                  Send a new code
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      {text && (
        <Alert color="red" icon={<IconAlertTriangle />} title={text.title} role="alert">
          {text.message}
        </Alert>
      )}
    </Stack>
  );
}
