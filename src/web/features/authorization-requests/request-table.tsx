import type { Ref } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { type ListSelection, ListTable } from '../../components/list-table.tsx';
import type { VirtualTableHandle } from '../../components/virtual-table-body.tsx';
import type { Decision } from './decision.ts';
import { RequestRow } from './request-row.tsx';
import { requestStatus } from './request-status.ts';

export interface RequestTableProps {
  requests: readonly AuthorizationRequest[];
  pendingIds: ReadonlySet<number> | undefined;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  handle?: Ref<VirtualTableHandle>;
  /** Rows decided elsewhere since they were loaded: shown greyed out with the new status. */
  changed?: ReadonlyMap<number, { Status: string; ChangedBy: string | null }>;
  /** Selection column (bulk decisions), when the page offers it. */
  selection?: ListSelection<AuthorizationRequest>;
}

export function RequestTable({ requests, pendingIds, onDecide, handle, changed, selection }: RequestTableProps) {
  return (
    <ListTable
      label="Authorization requests"
      minWidth={820}
      headings={['User', 'Device', 'Requested', 'Status']}
      rows={requests}
      rowKey={(request) => request.Id}
      selection={selection}
      handle={handle}
      renderRow={(request, _index, rowProps, selectCell) => (
        <RequestRow
          rowProps={rowProps}
          request={request}
          status={requestStatus(request, pendingIds)}
          changed={changed?.get(request.Id)}
          onDecide={onDecide}
          selectCell={selectCell}
        />
      )}
    />
  );
}
