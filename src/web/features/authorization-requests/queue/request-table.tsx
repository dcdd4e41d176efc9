import { memo, type ReactNode, type Ref } from 'react';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import type { Decision } from '../../../entities/request/decision.ts';
import { requestStatus } from '../../../entities/request/request-status.ts';
import type { ListSelection } from '../../../ui/lists/bulk/checkbox-selection.tsx';
import { ListTable } from '../../../ui/lists/list-table.tsx';
import type { VirtualTableHandle } from '../../../ui/lists/virtual/use-window-list.ts';
import type { RowChange } from '../use-live-queue.ts';
import { RequestCard } from './request-card.tsx';
import { RequestRow } from './request-row.tsx';

export interface RequestTableProps {
  requests: readonly AuthorizationRequest[];
  pendingIds: ReadonlySet<number> | undefined;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  handle?: Ref<VirtualTableHandle>;
  /** Rows decided elsewhere since they were loaded: shown greyed out with the new status. */
  changed?: ReadonlyMap<number, RowChange>;
  /** Selection column (bulk decisions), when the page offers it. */
  selection?: ListSelection<AuthorizationRequest>;
  /** Controls above the list (export). */
  toolbar?: ReactNode;
  /** A Status column; the pending queue has none (every row would say Pending). */
  showStatus?: boolean;
}

const WITH_STATUS = ['User', 'Device', 'Requested', 'Status'];
const WITHOUT_STATUS = ['User', 'Device', 'Requested'];

/** Memoized: the page renders on every keystroke, the table only when its rows, selection or live marks change. */
export const RequestTable = memo(function RequestTable({
  requests,
  pendingIds,
  onDecide,
  handle,
  changed,
  selection,
  toolbar,
  showStatus = true,
}: RequestTableProps) {
  return (
    <ListTable
      label="Authorization requests"
      minWidth={700}
      headings={showStatus ? WITH_STATUS : WITHOUT_STATUS}
      rows={requests}
      rowKey={(request) => request.Id}
      selection={selection}
      toolbar={toolbar}
      handle={handle}
      renderRow={(request, _index, rowProps, selectCell) => (
        <RequestRow
          rowProps={rowProps}
          request={request}
          status={requestStatus(request, pendingIds)}
          changed={changed?.get(request.Id)}
          onDecide={onDecide}
          selectCell={selectCell}
          showStatus={showStatus}
        />
      )}
      rowHeight={82}
      cardHeight={185}
      renderCard={(request, _index, card) => (
        <RequestCard
          request={request}
          status={requestStatus(request, pendingIds)}
          changed={changed?.get(request.Id)}
          onDecide={onDecide}
          selecting={card.selecting}
          showStatus={showStatus}
        />
      )}
    />
  );
});
