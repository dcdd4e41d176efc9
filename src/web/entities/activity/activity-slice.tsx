import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../shared/contract/index.ts';
import { type ActivityFilters, activityQueries } from '../../api/queries/activity-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { activitySummary } from './activity-labels.ts';
import { ActivityTargetLink } from './activity-links.tsx';
import { ACCOUNT_EVENTS_WITHHELD, useMayReadAccountEvents } from './activity-readers.ts';

/** Whether the signed-in person may read the Activity page's events (its sections are left out otherwise). */
export function useMayReadActivity(): boolean {
  const { session } = useSession();
  return endpointAccess(session, endpoints.listActivity).allowed;
}

/**
 * The newest security events of one person or account (the person page, the account drawer), with a link to the
 * Activity page filtered to them. Nothing at all for someone who may not read activity.
 */
export function ActivitySlice({
  filter,
  what,
}: {
  filter: Pick<ActivityFilters, 'person' | 'target'>;
  /** Whom the events concern, for the empty state: "them", "this account". */
  what: string;
}) {
  const allowed = useMayReadActivity();
  const accountEvents = useMayReadAccountEvents();
  const query = useQuery({ ...activityQueries.slice(filter), enabled: allowed });
  if (!allowed) return null;
  if (!query.isSuccess) return <QueryState query={query} loading="Loading activity…" what="activity" />;
  const events = query.data.Events;
  return (
    <Stack gap="xs" data-activity-slice>
      {events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {accountEvents ? `No security event concerns ${what} yet.` : `No event you may read concerns ${what} yet.`}
        </Text>
      ) : (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {events.map((event) => (
            <li key={event.Id} data-activity-id={event.Id}>
              <Group gap="xs" wrap="wrap" align="baseline">
                <Text size="sm" fw={500}>
                  {activitySummary(event)}
                </Text>
                {/* Failed in a badge, as the Activity page says it: red text this size misses AA contrast. */}
                {event.Outcome === 'failure' && <StatusBadge color="red">Failed</StatusBadge>}
                <Text size="xs" c="dimmed" span>
                  <Timestamp value={event.TimestampUtc} size="xs" />
                  {event.Actor && (
                    <>
                      {' '}
                      by <UserText>{event.Actor}</UserText>
                    </>
                  )}
                </Text>
                {event.TargetType && event.TargetId && <ActivityTargetLink event={event} />}
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {!accountEvents && (
        <Text size="xs" c="dimmed">
          {ACCOUNT_EVENTS_WITHHELD}
        </Text>
      )}
      <RouterAnchor to="/activity" search={filter} size="sm">
        All their activity
      </RouterAnchor>
    </Stack>
  );
}
