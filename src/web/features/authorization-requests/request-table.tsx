import { Paper, Table, VisuallyHidden } from '@mantine/core';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import type { Decision } from './decision.ts';
import { RequestRow } from './request-row.tsx';
import { requestStatus } from './request-status.ts';

export interface RequestTableProps {
  requests: AuthorizationRequest[];
  pendingIds: ReadonlySet<number> | undefined;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
}

export function RequestTable({ requests, pendingIds, onDecide }: RequestTableProps) {
  return (
    <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={820}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Authorization requests">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Device</Table.Th>
              <Table.Th>Requested</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {requests.map((request) => (
              <RequestRow
                key={request.Id}
                request={request}
                status={requestStatus(request, pendingIds)}
                onDecide={onDecide}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
