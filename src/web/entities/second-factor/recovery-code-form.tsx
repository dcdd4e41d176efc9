import { Button, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';

/** A recovery code typed as a second factor: at sign-in and when an action asks again (step-up). */
export function RecoveryCodeForm({
  busy,
  onSubmit,
  fullWidth = false,
}: {
  busy: boolean;
  /** The code as typed, trimmed; never empty. */
  onSubmit: (code: string) => void;
  fullWidth?: boolean;
}) {
  const [code, setCode] = useState('');
  const typed = code.trim();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (typed) onSubmit(typed);
  }
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <TextInput
          label="Recovery code"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" variant="default" fullWidth={fullWidth} disabled={!typed || busy}>
          Use the recovery code
        </Button>
      </Stack>
    </form>
  );
}
