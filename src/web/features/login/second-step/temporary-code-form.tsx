import { Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';

/**
 * A temporary code from the helpdesk, for a person whose phone and passkey are out of reach: folded away behind a
 * link unless it is all they have.
 */
export function TemporaryCodeForm({
  busy,
  onSubmit,
  opened,
}: {
  busy: boolean;
  onSubmit: (code: string) => void;
  opened: boolean;
}) {
  const [open, setOpen] = useState(opened);
  const [code, setCode] = useState('');
  const typed = code.trim();
  if (!open) {
    return (
      <Button variant="subtle" size="compact-sm" onClick={() => setOpen(true)}>
        I have a temporary code from the helpdesk
      </Button>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (typed) onSubmit(typed);
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Temporary code"
          description="The 12 digits the helpdesk gave you; spaces do not matter."
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          data-autofocus={opened || undefined}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" variant="default" fullWidth disabled={!typed || busy}>
          Use the temporary code
        </Button>
      </Stack>
    </form>
  );
}
