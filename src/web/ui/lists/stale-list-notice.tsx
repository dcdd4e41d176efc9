import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../../api/core/describe-error.ts';
import { ErrorState } from '../states/error-state.tsx';
import { LoadingState } from '../states/loading-state.tsx';

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

/**
 * A list page's body by its query: loading until the first rows, an error page only when no rows ever came, and
 * once they have, `children` (the rows, or the empty state), under `StaleListNotice` while a refetch fails.
 */
export function ListQueryBody({
  query,
  loading,
  children,
}: {
  query: UseQueryResult<unknown>;
  /** What the spinner says, e.g. "Loading people…". */
  loading: string;
  children: ReactNode;
}) {
  const retry = () => void query.refetch();
  if (query.data === undefined) {
    return query.isError ? <ErrorState error={query.error} onRetry={retry} /> : <LoadingState label={loading} />;
  }
  return (
    <>
      {query.isError && <StaleListNotice error={query.error} onRetry={retry} />}
      {children}
    </>
  );
}
