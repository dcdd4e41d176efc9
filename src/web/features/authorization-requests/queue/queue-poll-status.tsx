import { ActionIcon, Group, Loader, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { PENDING_POLL_MS } from '../../../api/queries/queries.ts';
import { formatClock } from '../../../lib/time/time-format.ts';
import { LazyTooltip } from '../../../ui/overlays/lazy-tooltip.tsx';

export interface QueuePollStatusProps {
  updatedAt: number;
  fetching: boolean;
  polling: boolean;
  /** The live change stream is connected: changes show as they happen. */
  live?: boolean;
  onRefresh: () => void;
}

export function QueuePollStatus({ updatedAt, fetching, polling, live = false, onRefresh }: QueuePollStatusProps) {
  return (
    <Group gap={6}>
      <Text size="xs" c="dimmed" aria-live="off">
        {updatedAt > 0 ? `Updated ${formatClock(updatedAt, true)}` : ''}
        {live ? ' · live' : polling ? ` · refreshes every ${PENDING_POLL_MS / 1000} s` : ''}
      </Text>
      <LazyTooltip label="Refresh now">
        <ActionIcon variant="subtle" color="gray" aria-label="Refresh" onClick={onRefresh} disabled={fetching}>
          {fetching ? <Loader size={14} /> : <IconRefresh size={16} />}
        </ActionIcon>
      </LazyTooltip>
    </Group>
  );
}
