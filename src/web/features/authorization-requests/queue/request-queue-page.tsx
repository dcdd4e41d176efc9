import { Button, Group, Text } from '@mantine/core';
import { IconArrowDown, IconChecklist, IconSearchOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { decideRequest } from '../../../api/queries/mutations.ts';
import { authorizationRequestQueries } from '../../../api/queries/queries.ts';
import type { Decision, DecisionTarget } from '../../../entities/request/decision.ts';
import { requestStatus } from '../../../entities/request/request-status.ts';
import { useFocusReturn } from '../../../lib/use-focus-return.ts';
import { TOUCH_TARGET, usePhone } from '../../../lib/use-phone.ts';
import { endpointAccess } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session-context.tsx';
import { BulkBar } from '../../../ui/lists/bulk/bulk-bar.tsx';
import { ListPage } from '../../../ui/lists/list-page.tsx';
import { ListQueryBody } from '../../../ui/lists/stale-list-notice.tsx';
import { useListPage } from '../../../ui/lists/use-list-page.tsx';
import type { VirtualTableHandle } from '../../../ui/lists/virtual/use-window-list.ts';
import { lazyChunk } from '../../../ui/overlays/lazy-chunk.tsx';
import { MessageState } from '../../../ui/states/message-state.tsx';
import { PAGES } from '../../../wiring/pages.tsx';
import { decidedElsewhere } from '../request-status-note.tsx';
import { useLiveQueue } from '../use-live-queue.ts';
import { bulkDecisionActions } from './bulk/bulk-decision-actions.ts';
import { requestSearchFields, sortRequests } from './filter-requests.ts';
import { useFocusNextRow } from './keyboard/use-focus-next-row.ts';
import { useTriageKeys } from './keyboard/use-triage-keys.ts';
import { QueuePollStatus } from './queue-poll-status.tsx';
import type { QueueSearch } from './queue-search.ts';
import { QueueToolbar } from './queue-toolbar.tsx';
import { requestCsvColumns } from './request-csv.ts';
import { RequestTable } from './request-table.tsx';

const route = getRouteApi('/_app/authorization-requests/');

// The dialog (modal, focus trap, toasts) loads on the first decision, not with the queue.
// Code that does not arrive (a new version, the server away) says so over the queue, which stays.
const DecisionDialog = lazyChunk(
  () => import('../../../entities/request/decision-dialog.tsx'),
  (module) => module.DecisionDialog,
);
const BulkDecisionDialog = lazyChunk(
  () => import('./bulk/bulk-decision-dialog.tsx'),
  (module) => module.BulkDecisionDialog,
);
const NO_REQUESTS: readonly AuthorizationRequest[] = [];
const idOfRequest = (request: AuthorizationRequest) => request.Id;
const selectLabel = (request: AuthorizationRequest) => `Select request #${request.Id} from ${request.UserName}`;
const ShortcutsDialog = lazyChunk(
  () => import('./keyboard/shortcuts-dialog.tsx'),
  (module) => module.ShortcutsDialog,
);

export function RequestQueuePage() {
  return (
    <ListPage page={PAGES.authorizationRequests}>
      <RequestQueue />
    </ListPage>
  );
}

function RequestQueue() {
  const { view, q, sort } = route.useSearch();
  const navigate = route.useNavigate();
  const listQuery = useQuery(authorizationRequestQueries.list({ view }));
  const pendingQuery = useQuery(authorizationRequestQueries.list({ view: 'pending' }));
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const focusReturn = useFocusReturn();
  const { session } = useSession();
  const phone = usePhone();

  // Sorting and the lowercase search text are computed once per data/sort change; a keystroke only filters.
  const sorted = useMemo(() => sortRequests(listQuery.data ?? NO_REQUESTS, sort), [listQuery.data, sort]);
  const live = useLiveQueue();
  // New arrivals wait behind the "N new requests" button: nothing moves under the person's eyes.
  const keep = useMemo(
    () => (live.arrived.size > 0 ? (request: AuthorizationRequest) => !live.arrived.has(request.Id) : undefined),
    [live.arrived],
  );
  const pendingIds = useMemo(
    () => (pendingQuery.data ? new Set(pendingQuery.data.map((request) => request.Id)) : undefined),
    [pendingQuery.data],
  );
  const csvColumns = useMemo(() => requestCsvColumns(pendingIds), [pendingIds]);
  const list = useListPage<AuthorizationRequest, QueueSearch, Decision>({
    data: sorted,
    q,
    fields: requestSearchFields,
    keep,
    selection: { endpoint: decideRequest.endpoint, idOf: idOfRequest, rowLabel: selectLabel, noun: 'requests' },
    csv: { columns: csvColumns, name: view === 'pending' ? 'pending-requests' : 'authorization-requests' },
    navigate,
  });
  const { rows, search, selection, selectedRows } = list;
  // Only a pending request can be approved or rejected: the bulk bar offers decisions for those alone.
  const isPending = useCallback(
    (request: AuthorizationRequest) =>
      requestStatus(request, pendingIds) === 'Pending' && !decidedElsewhere(live.changed.get(request.Id), 'Pending'),
    [pendingIds, live.changed],
  );
  const tableRef = useRef<VirtualTableHandle>(null);
  const focusAfter = useFocusNextRow(
    useMemo(() => rows.map((request) => request.Id), [rows]),
    tableRef,
  );

  function startBulk(decision: Decision) {
    focusReturn.remember();
    list.startBulk(decision, isPending);
  }
  const bulkActions = bulkDecisionActions(selectedRows, isPending, startBulk);

  // Stable, like the other props of the memoized table below.
  const decide = useCallback(
    (request: AuthorizationRequest, decision: Decision) => {
      focusReturn.remember();
      setTarget({ request, decision });
    },
    [focusReturn],
  );
  useTriageKeys(rows, tableRef, {
    decide: (request, decision) => {
      if (requestStatus(request, pendingIds) !== 'Pending') return;
      if (!endpointAccess(session, decideRequest.endpoint).allowed) return;
      decide(request, decision);
    },
    open: (request) => void navigate({ to: '/authorization-requests/$id', params: { id: request.Id } }),
    showHelp: () => {
      focusReturn.remember();
      setHelpOpen(true);
    },
  });

  return (
    <>
      <QueueToolbar
        view={view}
        q={q}
        sort={sort}
        pendingCount={pendingQuery.data?.length}
        onSearchInput={list.onSearchInput}
        onChange={list.changeSearch}
        exportButton={list.exportButton}
      />
      <BulkBar
        count={selection.selectedIds.length}
        total={rows.length}
        allSelected={selection.allSelected}
        onSelectAll={selection.selectAll}
        onClear={selection.clear}
        actions={bulkActions.actions}
        nothingToDo={bulkActions.nothingToDo}
      />
      {live.arrived.size > 0 && (
        <Button
          variant="light"
          size="sm"
          h={phone ? TOUCH_TARGET : undefined}
          mb="sm"
          fullWidth
          leftSection={<IconArrowDown size={16} />}
          onClick={() => void live.apply()}
        >
          {live.arrived.size === 1 ? 'Show 1 new request' : `Show ${live.arrived.size} new requests`}
        </Button>
      )}
      <ListQueryBody query={listQuery} loading="Loading requests…">
        {rows.length === 0 ? (
          search ? (
            <MessageState
              icon={<IconSearchOff />}
              title="No requests match your search"
              description={`Nothing in ${view === 'pending' ? 'the pending queue' : 'all requests'} matches “${search}”.`}
            >
              <Button
                variant="default"
                onClick={() => void navigate({ search: (prev) => ({ ...prev, q: undefined }) })}
              >
                Clear search
              </Button>
            </MessageState>
          ) : (
            <MessageState
              color="green"
              icon={<IconChecklist />}
              title={view === 'pending' ? 'All caught up' : 'No requests yet'}
              description={
                view === 'pending'
                  ? 'No device is waiting for a decision. New requests appear here by themselves.'
                  : 'When a mobile device asks to be authorized, it shows up here.'
              }
            />
          )
        ) : (
          <>
            <RequestTable
              requests={rows}
              pendingIds={pendingIds}
              onDecide={decide}
              handle={tableRef}
              changed={live.changed}
              selection={list.selectionColumn}
              showStatus={view !== 'pending'}
            />
            <Group gap={6} mt="xs">
              <QueuePollStatus
                updatedAt={listQuery.dataUpdatedAt}
                fetching={listQuery.isFetching}
                polling={view === 'pending'}
                live={live.mode === 'live'}
                onRefresh={() => void listQuery.refetch()}
              />
              {!phone && (
                <Text size="xs" c="dimmed">
                  · Press <kbd>?</kbd> for keyboard shortcuts
                </Text>
              )}
            </Group>
          </>
        )}
      </ListQueryBody>
      {target && (
        <Suspense fallback={null}>
          <DecisionDialog
            key={`${target.request.Id}-${target.decision}`}
            target={target}
            onClose={() => {
              setTarget(null);
              focusReturn.restore();
            }}
            onDecided={(decided) => {
              setTarget(null);
              focusAfter(decided.Id);
            }}
          />
        </Suspense>
      )}
      {list.bulk && (
        <Suspense fallback={null}>
          <BulkDecisionDialog
            decision={list.bulk.action}
            requests={list.bulk.rows}
            onClose={() => {
              list.endBulk();
              focusReturn.restore();
            }}
            onFinished={selection.clear}
          />
        </Suspense>
      )}
      {helpOpen && (
        <Suspense fallback={null}>
          <ShortcutsDialog
            onClose={() => {
              setHelpOpen(false);
              focusReturn.restore();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
