import { Button, Group, Text } from '@mantine/core';
import { IconArrowDown, IconChecklist, IconSearchOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { type AuthorizationRequest, endpoints } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries, type RequestView } from '../../api/queries.ts';
import { BulkBar } from '../../components/bulk/bulk-bar.tsx';
import { checkboxSelection } from '../../components/bulk/checkbox-selection.tsx';
import { useRowSelection } from '../../components/bulk/use-row-selection.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { MessageState } from '../../components/message-state.tsx';
import type { VirtualTableHandle } from '../../components/use-window-list.ts';
import { matchIndexed } from '../../lib/search-index.ts';
import { useFocusReturn } from '../../lib/use-focus-return.ts';
import { useLiveSearch } from '../../lib/use-live-search.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import { useSearchIndex } from '../../lib/use-search-index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import type { Decision, DecisionTarget } from './decision.ts';
import { requestSearchFields, sortRequests } from './filter-requests.ts';
import { QueuePollStatus } from './queue-poll-status.tsx';
import type { RequestSort } from './queue-search.ts';
import { QueueToolbar } from './queue-toolbar.tsx';
import { requestCsvColumns } from './request-csv.ts';
import { requestStatus } from './request-status.ts';
import { RequestTable } from './request-table.tsx';
import { useFocusNextRow } from './use-focus-next-row.ts';
import { useLiveQueue } from './use-live-queue.ts';
import { useTriageKeys } from './use-triage-keys.ts';

const route = getRouteApi('/_app/authorization-requests/');

// The dialog (modal, focus trap, toasts) loads on the first decision, not with the queue.
const DecisionDialog = lazy(() =>
  import('./decision-dialog.tsx').then((module) => ({ default: module.DecisionDialog })),
);
const BulkDecisionDialog = lazy(() =>
  import('./bulk-decision-dialog.tsx').then((module) => ({ default: module.BulkDecisionDialog })),
);
const NO_REQUESTS: readonly AuthorizationRequest[] = [];
const idOfRequest = (request: AuthorizationRequest) => request.Id;
const selectLabel = (request: AuthorizationRequest) => `Select request #${request.Id} from ${request.UserName}`;
const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog.tsx').then((module) => ({ default: module.ShortcutsDialog })),
);

export function RequestQueuePage() {
  return (
    <ListPage
      page={PAGES.authorizationRequests}
      description="Mobile devices asking to be trusted for two-factor authentication."
    >
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
  const [bulk, setBulk] = useState<{ decision: Decision; requests: AuthorizationRequest[] } | null>(null);
  const { session } = useSession();
  const phone = usePhone();

  // Sorting and the lowercase search text are computed once per data/sort change; a keystroke only filters.
  const sorted = useMemo(() => sortRequests(listQuery.data ?? NO_REQUESTS, sort), [listQuery.data, sort]);
  const index = useSearchIndex(sorted, requestSearchFields);
  const [search, onSearchInput] = useLiveSearch(q);
  // Stable, so the memoized toolbar renders for its own input only.
  const changeSearch = useCallback(
    (change: { view?: RequestView; q?: string | undefined; sort?: RequestSort }) =>
      void navigate({ search: (prev) => ({ ...prev, ...change }), replace: 'q' in change }),
    [navigate],
  );
  const live = useLiveQueue();
  // New arrivals wait behind the "N new requests" button: nothing moves under the person's eyes.
  const rows = useMemo(
    () => matchIndexed(index, search, live.arrived.size > 0 ? (request) => !live.arrived.has(request.Id) : undefined),
    [index, search, live.arrived],
  );
  const tableRef = useRef<VirtualTableHandle>(null);
  const pendingIds = useMemo(
    () => (pendingQuery.data ? new Set(pendingQuery.data.map((request) => request.Id)) : undefined),
    [pendingQuery.data],
  );
  const focusAfter = useFocusNextRow(
    useMemo(() => rows.map((request) => request.Id), [rows]),
    tableRef,
  );

  const selection = useRowSelection(rows, idOfRequest);
  const canDecide = endpointAccess(session, endpoints.authorizeDevice).allowed;
  const selectedCount = selection.selectedIds.length;

  function startBulk(decision: Decision) {
    const ids = new Set(selection.selectedIds);
    focusReturn.remember();
    setBulk({ decision, requests: rows.filter((request) => ids.has(request.Id)) });
  }

  // Stable, like the other props of the memoized table below.
  const decide = useCallback(
    (request: AuthorizationRequest, decision: Decision) => {
      focusReturn.remember();
      setTarget({ request, decision });
    },
    [focusReturn],
  );
  // The table is memoized: a keystroke's first render (before the deferred search) and the URL update after it
  // change none of these, so they skip the table (issue 15: ≤ 100 ms a keystroke at 20,000 requests).
  const exportButton = useMemo(
    () => (
      <ExportCsvButton
        rows={rows}
        columns={requestCsvColumns(pendingIds)}
        name={view === 'pending' ? 'pending-requests' : 'authorization-requests'}
      />
    ),
    [rows, pendingIds, view],
  );
  const selectionColumn = useMemo(
    () =>
      canDecide ? checkboxSelection(selection, selectLabel, `Select all ${rows.length} matching requests`) : undefined,
    [canDecide, selection, rows.length],
  );

  useTriageKeys(rows, tableRef, {
    decide: (request, decision) => {
      if (requestStatus(request, pendingIds) !== 'Pending') return;
      if (!endpointAccess(session, endpoints.authorizeDevice).allowed) return;
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
        onSearchInput={onSearchInput}
        onChange={changeSearch}
      />
      <BulkBar
        count={selectedCount}
        total={rows.length}
        allSelected={selection.allSelected}
        onSelectAll={selection.selectAll}
        onClear={selection.clear}
        actions={[
          { key: 'approve', label: 'Approve', onClick: () => startBulk('approve') },
          // Filled: a light variant with a shade (red.9) paints its text in the background colour.
          { key: 'reject', label: 'Reject', color: 'red.9', onClick: () => startBulk('reject') },
        ]}
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
      {listQuery.isPending ? (
        <LoadingState label="Loading requests…" />
      ) : listQuery.isError ? (
        <ErrorState error={listQuery.error} onRetry={() => void listQuery.refetch()} />
      ) : rows.length === 0 ? (
        search ? (
          <MessageState
            icon={<IconSearchOff />}
            title="No requests match your search"
            description={`Nothing in ${view === 'pending' ? 'the pending queue' : 'all requests'} matches “${search}”.`}
          >
            <Button variant="default" onClick={() => void navigate({ search: (prev) => ({ ...prev, q: undefined }) })}>
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
            toolbar={exportButton}
            selection={selectionColumn}
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
      {bulk && (
        <Suspense fallback={null}>
          <BulkDecisionDialog
            decision={bulk.decision}
            requests={bulk.requests}
            onClose={() => {
              setBulk(null);
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
