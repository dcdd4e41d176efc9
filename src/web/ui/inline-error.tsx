import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconRefresh } from '@tabler/icons-react';
import { describeError } from '../api/core/describe-error.ts';

/** A part of a page that failed to load (the rest still works): what went wrong, and a way to try again. */
export function InlineError({ error, onRetry, about }: { error: unknown; onRetry: () => void; about?: string }) {
  const { title, message } = describeError(error);
  return (
    <Alert color="red" icon={<IconInfoCircle />} title={about ? `${about}: ${title}` : title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
