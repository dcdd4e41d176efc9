import { Stack, Table, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { useCompactTable } from '../../components/list-table.tsx';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { UserText } from '../../components/user-text.tsx';
import type { VirtualRowProps } from '../../components/virtual-table-body.tsx';
import type { Decision } from './decision.ts';
import { DecisionButtons } from './decision-buttons.tsx';
import { DeviceSummary } from './device-summary.tsx';
import type { RequestDisplayStatus } from './request-status.ts';
import { decidedElsewhere, RequestStatusNote } from './request-status-note.tsx';
import type { RowChange } from './use-live-queue.ts';

export interface RequestRowProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  rowProps?: VirtualRowProps;
  /** Decided by someone else while this list was on screen. */
  changed?: RowChange | undefined;
  selectCell?: ReactNode;
}

export const RequestRow = memo(function RequestRow({
  request,
  status,
  onDecide,
  rowProps,
  changed,
  selectCell,
}: RequestRowProps) {
  const stale = decidedElsewhere(changed, status);
  const compact = useCompactTable();
  return (
    <Table.Tr
      {...rowProps}
      data-request-id={request.Id}
      data-stale={stale ? 'true' : undefined}
      style={stale ? { opacity: 0.55 } : undefined}
    >
      {selectCell !== undefined && <Table.Td>{selectCell}</Table.Td>}
      <Table.Td>
        <Stack gap={0}>
          <RouterAnchor
            to="/authorization-requests/$id"
            params={{ id: request.Id }}
            fw={600}
            size="sm"
            data-request-focus={request.Id}
          >
            <UserText>{request.UserName}</UserText>
          </RouterAnchor>
          <Text size="xs" c="dimmed" style={compact ? { overflowWrap: 'anywhere' } : undefined}>
            <UserText>{request.UserEmail}</UserText>
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <DeviceSummary
          deviceType={request.DeviceType}
          manufacturer={request.Manufacturer}
          model={request.Model}
          osVersion={request.OsVersion}
        />
      </Table.Td>
      <Table.Td>
        <Timestamp value={request.CreatedTimestampUtc} relative plain />
      </Table.Td>
      <Table.Td>
        <RequestStatusNote request={request} status={status} changed={changed} />
      </Table.Td>
      <Table.Td>
        {status === 'Pending' && !stale && (
          <DecisionButtons request={request} onDecide={(d) => onDecide(request, d)} wrap={compact} />
        )}
      </Table.Td>
    </Table.Tr>
  );
});
