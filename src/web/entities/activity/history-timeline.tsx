import { Group, Loader, Paper, Text, Timeline, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconCircleCheck,
  IconCirclePlus,
  IconHistory,
  IconSwitchHorizontal,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { endpoints, type HistoryEntity, type HistoryEntry } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries/queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { InlineError } from '../../ui/inline-error.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

const ACTION_TEXT: Record<HistoryEntry['Action'], string> = {
  Created: 'Created',
  Decided: 'Decided',
  StatusChanged: 'Status changed',
  Registered: 'Registered',
};

function ActionIcon({ action }: { action: HistoryEntry['Action'] }) {
  if (action === 'Decided') return <IconCircleCheck size={14} />;
  if (action === 'StatusChanged') return <IconSwitchHorizontal size={14} />;
  return <IconCirclePlus size={14} />;
}

export interface HistoryTimelineProps {
  entity: HistoryEntity;
  id: number;
}

/** Who changed what, when: the recorded history of one request or push user, newest first. */
export function HistoryTimeline({ entity, id }: HistoryTimelineProps) {
  const { session } = useSession();
  const access = endpointAccess(session, endpoints.history);
  return (
    <Paper p="lg" radius="md" shadow="xs" component="section" aria-labelledby="history-heading">
      <Group gap={8} mb="md">
        <IconHistory size={18} aria-hidden />
        <Title order={2} fz="md" id="history-heading">
          History
        </Title>
      </Group>
      {access.allowed ? (
        <HistoryBody entity={entity} id={id} />
      ) : (
        <Text size="sm" c="dimmed" data-testid="history-unavailable">
          {access.reason === 'unavailable'
            ? `The change history is an extension of this service, not part of API ${session?.apiVersion}, so the dashboard does not ask for it.`
            : `The change history is not shown: ${access.message}.`}
        </Text>
      )}
    </Paper>
  );
}

function HistoryBody({ entity, id }: HistoryTimelineProps) {
  const requestHistory = useQuery({
    ...authorizationRequestQueries.history(id),
    enabled: entity === 'AuthorizationRequest',
  });
  const pushUserHistory = useQuery({ ...pushUserQueries.history(id), enabled: entity === 'PushMessageUser' });
  const query = entity === 'AuthorizationRequest' ? requestHistory : pushUserHistory;
  if (query.isPending) {
    return (
      <Group gap="xs" role="status" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading history…
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    if (isNotFound(query.error)) {
      // A server without this product's extensions (e.g. the original Tachyon service).
      return (
        <Text size="sm" c="dimmed" data-testid="history-unavailable">
          This server does not record a change history.
        </Text>
      );
    }
    return <InlineError error={query.error} about="History" onRetry={() => void query.refetch()} />;
  }
  const entries = [...query.data].sort(
    (a, b) => b.ChangedTimestampUtc.localeCompare(a.ChangedTimestampUtc) || b.Id - a.Id,
  );
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing recorded yet.
      </Text>
    );
  }
  return (
    <Timeline active={entries.length - 1} bulletSize={24} lineWidth={2} data-testid="history-timeline">
      {entries.map((entry) => (
        <Timeline.Item
          key={entry.Id}
          bullet={<ActionIcon action={entry.Action} />}
          title={
            <Group gap={6} wrap="wrap">
              <Text span fw={600} size="sm">
                {ACTION_TEXT[entry.Action]}
              </Text>
              {entry.From ? (
                <Group gap={4} component="span" wrap="nowrap">
                  <Text span size="sm">
                    {entry.From}
                  </Text>
                  <IconArrowRight size={12} aria-label="to" />
                  <Text span size="sm" fw={500}>
                    {entry.To}
                  </Text>
                </Group>
              ) : (
                <Text span size="sm" fw={500}>
                  {entry.To}
                </Text>
              )}
            </Group>
          }
          data-testid="history-entry"
        >
          <Text size="xs" c="dimmed">
            {entry.ChangedBy ? <UserText>{entry.ChangedBy}</UserText> : 'the system'} ·{' '}
            <Timestamp value={entry.ChangedTimestampUtc} size="xs" />
          </Text>
          {entry.Comment && (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
              “<UserText>{entry.Comment}</UserText>”
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.kind === 'not-found';
}
