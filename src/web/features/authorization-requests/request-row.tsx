import { Stack, Table, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import type { VirtualRowProps } from '../../components/virtual-table-body.tsx';
import type { Decision } from './decision.ts';
import { DecisionButtons } from './decision-buttons.tsx';
import { DeviceSummary } from './device-summary.tsx';
import type { RequestDisplayStatus } from './request-status.ts';
import { RequestStatusBadge } from './request-status-badge.tsx';

export interface RequestRowProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  rowProps?: VirtualRowProps;
  /** Decided by someone else while this list was on screen. */
  changed?: { Status: string; ChangedBy: string | null } | undefined;
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
  const decidedElsewhere = changed !== undefined && changed.Status !== 'Pending' && status === 'Pending';
  return (
    <Table.Tr
      {...rowProps}
      data-request-id={request.Id}
      data-stale={decidedElsewhere ? 'true' : undefined}
      style={decidedElsewhere ? { opacity: 0.55 } : undefined}
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
            {request.UserName}
          </RouterAnchor>
          <Text size="xs" c="dimmed">
            {request.UserEmail}
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
        <Stack gap={2} align="flex-start">
          {decidedElsewhere ? (
            <>
              <RequestStatusBadge status={changed.Status as RequestDisplayStatus} />
              <Text size="xs" c="dimmed">
                {changed.ChangedBy ? `just now by ${changed.ChangedBy}` : 'just now'}
              </Text>
            </>
          ) : (
            <>
              {status && <RequestStatusBadge status={status} />}
              {request.DecidedBy && (
                <Text size="xs" c="dimmed">
                  by {request.DecidedBy}
                </Text>
              )}
            </>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        {status === 'Pending' && !decidedElsewhere && (
          <DecisionButtons request={request} onDecide={(d) => onDecide(request, d)} />
        )}
      </Table.Td>
    </Table.Tr>
  );
});
