import { Button } from '@mantine/core';
import { IconSearchOff, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useMemo } from 'react';
import type { PushMessageUser, PushUserStatus } from '../../../../shared/contract/index.ts';
import { updatePushUser } from '../../../api/queries/mutations.ts';
import { pushUserQueries } from '../../../api/queries/queries.ts';
import { BulkBar } from '../../../ui/lists/bulk/bulk-bar.tsx';
import { ListPage } from '../../../ui/lists/list-page.tsx';
import { ListQueryBody } from '../../../ui/lists/stale-list-notice.tsx';
import { useListPage } from '../../../ui/lists/use-list-page.tsx';
import { MessageState } from '../../../ui/states/message-state.tsx';
import { PAGES } from '../../../wiring/pages.tsx';
import { bulkStatusActions } from './bulk-status-actions.ts';
import { pushUserSearchFields, statusKeeper } from './filter-push-users.ts';
import { pushUserCsvColumns } from './push-user-csv.ts';
import type { PushUserSearch } from './push-user-search.ts';
import { PushUserTable } from './push-user-table.tsx';
import { PushUserToolbar } from './push-user-toolbar.tsx';

const route = getRouteApi('/_app/push-users/');

const BulkStatusDialog = lazy(() =>
  import('./bulk-status-dialog.tsx').then((module) => ({ default: module.BulkStatusDialog })),
);
const idOfUser = (user: PushMessageUser) => user.Id;
const selectLabel = (user: PushMessageUser) => `Select push user #${user.Id} ${user.UserName}`;

export function PushUsersPage() {
  return (
    <ListPage page={PAGES.pushUsers}>
      <PushUsers />
    </ListPage>
  );
}

function PushUsers() {
  const { status, q } = route.useSearch();
  const navigate = route.useNavigate();
  const query = useQuery(pushUserQueries.list());
  const keep = useMemo(() => statusKeeper(status), [status]);
  const list = useListPage<PushMessageUser, PushUserSearch, PushUserStatus>({
    data: query.data,
    q,
    fields: pushUserSearchFields,
    keep,
    selection: { endpoint: updatePushUser.endpoint, idOf: idOfUser, rowLabel: selectLabel, noun: 'push users' },
    csv: { columns: pushUserCsvColumns, name: 'push-users' },
    navigate,
  });
  const { rows, search, selection, bulk, selectedRows } = list;
  const startBulk = list.startBulk;
  const actions = useMemo(() => bulkStatusActions(selectedRows, startBulk), [selectedRows, startBulk]);

  return (
    <>
      <PushUserToolbar
        status={status}
        q={q}
        users={query.data}
        onSearchInput={list.onSearchInput}
        onChange={list.changeSearch}
        exportButton={list.exportButton}
      />
      <ListQueryBody query={query} loading="Loading push users…">
        {rows.length === 0 ? (
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
              count={selection.selectedIds.length}
              total={rows.length}
              allSelected={selection.allSelected}
              onSelectAll={selection.selectAll}
              onClear={selection.clear}
              actions={actions}
            />
            <PushUserTable users={rows} selection={list.selectionColumn} />
          </>
        )}
      </ListQueryBody>
      {bulk && (
        <Suspense fallback={null}>
          <BulkStatusDialog
            status={bulk.action}
            users={bulk.rows}
            unchanged={selection.selectedIds.length - bulk.rows.length}
            onClose={list.endBulk}
            onFinished={selection.clear}
          />
        </Suspense>
      )}
    </>
  );
}
