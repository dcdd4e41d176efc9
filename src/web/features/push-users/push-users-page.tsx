import { Button, Group } from '@mantine/core';
import { IconSearchOff, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { endpoints } from '../../../shared/contract/index.ts';
import { pushUserQueries } from '../../api/queries.ts';
import { EndpointGate } from '../../components/endpoint-gate.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { MessageState } from '../../components/message-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useLiveSearch } from '../../lib/use-live-search.ts';
import { indexPushUsers, matchPushUsers } from './filter-push-users.ts';
import { pushUserCsvColumns } from './push-user-csv.ts';
import { PushUserTable } from './push-user-table.tsx';
import { PushUserToolbar } from './push-user-toolbar.tsx';

const route = getRouteApi('/_app/push-users/');

export function PushUsersPage() {
  return (
    <>
      <PageHeader
        title="Push users"
        description="Devices registered to receive push messages, such as two-factor tokens."
      />
      <EndpointGate endpoint={endpoints.listPushMessageUsers} feature="Push users">
        <PushUsers />
      </EndpointGate>
    </>
  );
}

function PushUsers() {
  const { status, q } = route.useSearch();
  const navigate = route.useNavigate();
  const query = useQuery(pushUserQueries.list());
  // The lowercase search text is built once per data change; a keystroke only filters.
  const index = useMemo(() => indexPushUsers(query.data ?? []), [query.data]);
  const [search, onSearchInput] = useLiveSearch(q);
  const rows = useMemo(() => matchPushUsers(index, { status, q: search }), [index, status, search]);

  return (
    <>
      <PushUserToolbar
        status={status}
        q={q}
        users={query.data ?? []}
        onSearchInput={onSearchInput}
        onChange={(change) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: 'q' in change })}
      />
      {query.isPending ? (
        <LoadingState label="Loading push users…" />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        search || status !== 'all' ? (
          <MessageState
            icon={<IconSearchOff />}
            title="No push users match"
            description="Try another search or status filter."
          >
            <Button variant="default" onClick={() => void navigate({ search: {} })}>
              Show all push users
            </Button>
          </MessageState>
        ) : (
          <MessageState
            icon={<IconUsers />}
            title="No push users yet"
            description="A device appears here once its authorization request has been approved."
          />
        )
      ) : (
        <>
          <Group justify="flex-end" mb="xs">
            <ExportCsvButton rows={rows} columns={pushUserCsvColumns} name="push-users" />
          </Group>
          <PushUserTable users={rows} />
        </>
      )}
    </>
  );
}
