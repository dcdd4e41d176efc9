import { Button } from '@mantine/core';
import { IconSearchOff, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { endpoints, type PushMessageUser, type PushUserStatus } from '../../../shared/contract/index.ts';
import { pushUserQueries } from '../../api/queries.ts';
import { BulkBar } from '../../components/bulk/bulk-bar.tsx';
import { checkboxSelection } from '../../components/bulk/checkbox-selection.tsx';
import { useRowSelection } from '../../components/bulk/use-row-selection.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { MessageState } from '../../components/message-state.tsx';
import { PUSH_USER_STATUS_LOOK, STATUS_VALUES } from '../../components/push-user-status.ts';
import { useLiveSearch } from '../../lib/use-live-search.ts';
import { useSearchIndex } from '../../lib/use-search-index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { matchPushUsers, pushUserSearchFields } from './filter-push-users.ts';
import { pushUserCsvColumns } from './push-user-csv.ts';
import type { StatusFilter } from './push-user-search.ts';
import { PushUserTable } from './push-user-table.tsx';
import { PushUserToolbar } from './push-user-toolbar.tsx';

const route = getRouteApi('/_app/push-users/');

const BulkStatusDialog = lazy(() =>
  import('./bulk-status-dialog.tsx').then((module) => ({ default: module.BulkStatusDialog })),
);
const NO_USERS: readonly PushMessageUser[] = [];
const idOfUser = (user: PushMessageUser) => user.Id;
const selectLabel = (user: PushMessageUser) => `Select push user #${user.Id} ${user.UserName}`;

export function PushUsersPage() {
  return (
    <ListPage
      page={PAGES.pushUsers}
      description="Devices registered to receive push messages, such as two-factor tokens."
    >
      <PushUsers />
    </ListPage>
  );
}

function PushUsers() {
  const { status, q } = route.useSearch();
  const navigate = route.useNavigate();
  const query = useQuery(pushUserQueries.list());
  const users = query.data ?? NO_USERS;
  // The lowercase search text is built once per data change; a keystroke only filters.
  const index = useSearchIndex(users, pushUserSearchFields);
  const [search, onSearchInput] = useLiveSearch(q);
  // Stable, so the memoized toolbar renders for its own input only.
  const changeSearch = useCallback(
    (change: { status?: StatusFilter; q?: string | undefined }) =>
      void navigate({ search: (prev) => ({ ...prev, ...change }), replace: 'q' in change }),
    [navigate],
  );
  const rows = useMemo(() => matchPushUsers(index, { status, q: search }), [index, status, search]);
  const { session } = useSession();
  const canUpdate = endpointAccess(session, endpoints.updatePushMessageUser).allowed;
  const selection = useRowSelection(rows, idOfUser);
  // The table is memoized: a keystroke's first render (before the deferred search) and the URL update after it
  // change none of these, so they skip the table (issue 15: ≤ 100 ms a keystroke at 50,000 users).
  const selectionColumn = useMemo(
    () =>
      canUpdate
        ? checkboxSelection(selection, selectLabel, `Select all ${rows.length} matching push users`)
        : undefined,
    [canUpdate, selection, rows.length],
  );
  const exportButton = useMemo(
    () => <ExportCsvButton rows={rows} columns={pushUserCsvColumns} name="push-users" />,
    [rows],
  );
  const selectedCount = selection.selectedIds.length;
  const [bulk, setBulk] = useState<{ status: PushUserStatus; users: PushMessageUser[] } | null>(null);
  function startBulk(next: PushUserStatus) {
    const ids = new Set(selection.selectedIds);
    setBulk({ status: next, users: rows.filter((user) => ids.has(user.Id)) });
  }

  return (
    <>
      <PushUserToolbar status={status} q={q} users={users} onSearchInput={onSearchInput} onChange={changeSearch} />
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
          <BulkBar
            count={selectedCount}
            total={rows.length}
            allSelected={selection.allSelected}
            onSelectAll={selection.selectAll}
            onClear={selection.clear}
            actions={STATUS_VALUES.map((next) => ({
              key: next,
              label: PUSH_USER_STATUS_LOOK[next].action,
              // Filled: a light variant with a shade (red.9) paints its text in the background colour.
              variant: PUSH_USER_STATUS_LOOK[next].destructive ? 'filled' : 'default',
              color: PUSH_USER_STATUS_LOOK[next].destructive ? 'red.9' : undefined,
              onClick: () => startBulk(next),
            }))}
          />
          <PushUserTable users={rows} toolbar={exportButton} selection={selectionColumn} />
        </>
      )}
      {bulk && (
        <Suspense fallback={null}>
          <BulkStatusDialog
            status={bulk.status}
            users={bulk.users}
            onClose={() => setBulk(null)}
            onFinished={selection.clear}
          />
        </Suspense>
      )}
    </>
  );
}
