import { Button, Group, Text } from '@mantine/core';
import { IconActivity, IconSearchOff } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { ActivityEvent } from '../../../shared/contract/index.ts';
import { activityQueries } from '../../api/queries/activity-queries.ts';
import { ACCOUNT_EVENTS_WITHHELD, useMayReadAccountEvents } from '../../entities/activity/activity-readers.ts';
import { ListPage } from '../../ui/lists/list-page.tsx';
import { ErrorState } from '../../ui/states/error-state.tsx';
import { LoadingState } from '../../ui/states/loading-state.tsx';
import { MessageState } from '../../ui/states/message-state.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { ActivityExportButton } from './activity-export-button.tsx';
import { type ActivitySearch, anyFilter, NO_FILTERS } from './activity-search.ts';
import { ActivityTable } from './activity-table.tsx';
import { ActivityToolbar } from './activity-toolbar.tsx';

const route = getRouteApi('/_app/activity');

export function ActivityPage() {
  return (
    <ListPage page={PAGES.activity}>
      <Activity />
    </ListPage>
  );
}

function Activity() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const onChange = (change: Partial<ActivitySearch>) =>
    void navigate({ search: (previous) => ({ ...previous, ...change }), replace: true });
  return <ActivityList search={search} onChange={onChange} />;
}

function ActivityList({
  search,
  onChange,
}: {
  search: ActivitySearch;
  onChange: (change: Partial<ActivitySearch>) => void;
}) {
  // The pages after the first, by the `Next` of the page before each. Only the newest page follows what happens (it is
  // read again every few seconds) while it is the only one: with older pages loaded, refreshing it would leave a gap.
  // Older pages start over whenever a filter changes. Not by remounting the list: that would remount the filters
  // too, and a filter that applies while a person types in it would lose the focus and the next keys.
  const filters = JSON.stringify(search);
  const [paging, setPaging] = useState<{ filters: string; cursors: string[] }>({ filters, cursors: [] });
  const cursors = paging.filters === filters ? paging.cursors : [];
  const lookFurther = (next: string) => setPaging({ filters, cursors: [...cursors, next] });
  const pages = useQueries({
    queries: [undefined, ...cursors].map((before, index) => ({
      ...activityQueries.page({ ...search, before }),
      ...(index === 0 && cursors.length > 0 ? { refetchInterval: false as const } : {}),
    })),
  });
  const first = pages[0];
  const events = useMemo(() => {
    const seen = new Set<number>();
    const all: ActivityEvent[] = [];
    for (const page of pages) {
      for (const event of page.data?.Events ?? []) {
        if (seen.has(event.Id)) continue;
        seen.add(event.Id);
        all.push(event);
      }
    }
    return all;
  }, [pages]);
  const last = pages.at(-1);
  const next = last?.data?.Next ?? null;
  const exportButton = <ActivityExportButton search={search} disabled={events.length === 0} />;
  const accountEvents = useMayReadAccountEvents();

  return (
    <>
      <ActivityToolbar search={search} onChange={onChange} exportButton={exportButton} />
      {!accountEvents && (
        <Text size="xs" c="dimmed" mt="-xs" mb="sm">
          {ACCOUNT_EVENTS_WITHHELD}
        </Text>
      )}
      {!first || first.isPending ? (
        <LoadingState label="Loading activity…" />
      ) : first.isError ? (
        <ErrorState error={first.error} onRetry={() => void first.refetch()} />
      ) : events.length === 0 && (next || last?.isPending) ? (
        // Text no index narrows (one or two characters) is read through a share of the events per page.
        <MessageState
          icon={<IconSearchOff />}
          title="Not found among the newest events"
          description="Short text like this is looked for a share of the events at a time. Type more of it (a word of three letters or digits) to search every event at once, or look further back."
        >
          <Button variant="default" loading={last?.isFetching} onClick={() => next && lookFurther(next)}>
            Look further back
          </Button>
        </MessageState>
      ) : events.length === 0 ? (
        anyFilter(search) ? (
          <MessageState
            icon={<IconSearchOff />}
            title="No event matches"
            description="Try other filters or another time."
          >
            <Button variant="default" onClick={() => onChange(NO_FILTERS)}>
              Show every event
            </Button>
          </MessageState>
        ) : (
          <MessageState
            icon={<IconActivity />}
            title="Nothing has happened yet"
            description="Sign-ins, decisions, enrolments and reports appear here as they happen."
          />
        )
      ) : (
        <>
          <ActivityTable events={events} />
          <Group justify="center" mt="md" gap="sm">
            {last?.isError ? (
              <ErrorState error={last.error} onRetry={() => void last.refetch()} />
            ) : next ? (
              <Button variant="default" loading={last?.isFetching} onClick={() => lookFurther(next)}>
                Load older events
              </Button>
            ) : (
              <Text size="sm" c="dimmed">
                {events.length === 1
                  ? 'That is the only event.'
                  : `That is all ${events.length.toLocaleString()} events.`}
              </Text>
            )}
          </Group>
        </>
      )}
    </>
  );
}
