import { Paper, Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode, Ref } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { VirtualTableBody, type VirtualTableHandle } from '../../components/virtual-table-body.tsx';
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
  selection?: {
    header: ReactNode;
    cell: (request: AuthorizationRequest, index: number) => ReactNode;
  };
}

export function RequestTable({ requests, pendingIds, onDecide, handle, changed, selection }: RequestTableProps) {
  const columns = selection ? 6 : 5;
  return (
    <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={820}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          highlightOnHover
          aria-label="Authorization requests"
          aria-rowcount={requests.length + 1}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
              {selection && <Table.Th w={40}>{selection.header}</Table.Th>}
              <Table.Th>User</Table.Th>
              <Table.Th>Device</Table.Th>
              <Table.Th>Requested</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <VirtualTableBody
            rows={requests}
            rowKey={(request) => request.Id}
            estimateSize={62}
            columns={columns}
            handle={handle}
            renderRow={(request, index, rowProps) => (
              <RequestRow
                rowProps={rowProps}
                request={request}
                status={requestStatus(request, pendingIds)}
                changed={changed?.get(request.Id)}
                onDecide={onDecide}
                selectCell={selection?.cell(request, index)}
              />
            )}
          />
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
