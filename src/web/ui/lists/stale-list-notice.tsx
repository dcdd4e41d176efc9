import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { describeError } from '../../api/core/describe-error.ts';

/**
 * A list that could not be asked again (the server unreachable, say) keeps the rows it showed: this says so above
 * them, and why, instead of replacing them with an error page and counting "(0)" of everything.
 */
export function StaleListNotice({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { title, message } = describeError(error);
  return (
    <Alert color="yellow" icon={<IconPlugConnectedX />} title={title} mb="sm" role="status" data-testid="stale-list">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{message} Below is the list as it was last shown; it may have changed since.</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
