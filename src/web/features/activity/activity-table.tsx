import { Group, Stack, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import type { ActivityEvent } from '../../../shared/contract/index.ts';
import { activitySummary } from '../../entities/activity/activity-labels.ts';
import { ActivityPersonLink, ActivityTargetLink } from '../../entities/activity/activity-links.tsx';
import { ListCell, ListRow, ListTable } from '../../ui/lists/list-table.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import text from '../../ui/text/row-text.module.css';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

function Outcome({ event }: { event: ActivityEvent }) {
  return event.Outcome === 'failure' ? <StatusBadge color="red">Failed</StatusBadge> : null;
}

function From({ event }: { event: ActivityEvent }) {
  return (
    <p className={`${text.xs} ${text.dimmed}`} title={event.UserAgent ?? undefined}>
      <UserText>{event.SourceIp ?? '—'}</UserText>
    </p>
  );
}

export interface ActivityTableProps {
  events: readonly ActivityEvent[];
  toolbar?: ReactNode;
}

/** The events, newest first: when, what, who did it, whom it concerns, what it was about, from where. */
export const ActivityTable = memo(function ActivityTable({ events, toolbar }: ActivityTableProps) {
  return (
    <ListTable
      label="Security events"
      minWidth={900}
      headings={['Time', 'Event', 'By', 'Concerns', 'Target', 'From']}
      rows={events}
      rowKey={(event) => event.Id}
      toolbar={toolbar}
      renderRow={(event, _index, rowProps) => (
        <ListRow {...rowProps} data-activity-id={event.Id}>
          <ListCell>
            <Timestamp value={event.TimestampUtc} />
          </ListCell>
          <ListCell>
            <Group gap={6} wrap="nowrap">
              <p className={`${text.sm} ${text.medium}`}>{activitySummary(event)}</p>
              <Outcome event={event} />
            </Group>
          </ListCell>
          <ListCell>
            {event.Actor ? (
              <p className={text.sm}>
                <UserText>{event.Actor}</UserText>
              </p>
            ) : (
              <p className={`${text.sm} ${text.dimmed}`}>—</p>
            )}
          </ListCell>
          <ListCell>
            <ActivityPersonLink name={event.Person} />
          </ListCell>
          <ListCell>
            <ActivityTargetLink event={event} />
          </ListCell>
          <ListCell>
            <From event={event} />
          </ListCell>
        </ListRow>
      )}
      rowHeight={52}
      cardHeight={118}
      renderCard={(event) => (
        <Stack gap={4} data-activity-id={event.Id}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Text size="sm" fw={600}>
              {activitySummary(event)}
            </Text>
            <Outcome event={event} />
          </Group>
          <Text size="xs" c="dimmed">
            <Timestamp value={event.TimestampUtc} size="xs" />
            {event.Actor && (
              <>
                {' '}
                by <UserText>{event.Actor}</UserText>
              </>
            )}
            {event.SourceIp && (
              <>
                {' '}
                from <UserText>{event.SourceIp}</UserText>
              </>
            )}
          </Text>
          {/* Only what there is: a card has no column heading for a dash to stand under. */}
          <Group gap="sm">
            {event.Person && <ActivityPersonLink name={event.Person} />}
            {event.TargetType && event.TargetId && <ActivityTargetLink event={event} />}
          </Group>
        </Stack>
      )}
    />
  );
});
