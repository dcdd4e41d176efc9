import { Stack, Table, Text } from '@mantine/core';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import type { Decision } from './decision.ts';
import { DecisionButtons } from './decision-buttons.tsx';
import { DeviceSummary } from './device-summary.tsx';
import type { RequestDisplayStatus } from './request-status.ts';
import { RequestStatusBadge } from './request-status-badge.tsx';

export interface RequestRowProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
}

export function RequestRow({ request, status, onDecide }: RequestRowProps) {
  return (
    <Table.Tr data-request-id={request.Id}>
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
        <Timestamp value={request.CreatedTimestampUtc} relative />
      </Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          {status && <RequestStatusBadge status={status} />}
          {request.DecidedBy && (
            <Text size="xs" c="dimmed">
              by {request.DecidedBy}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        {status === 'Pending' && <DecisionButtons request={request} onDecide={(d) => onDecide(request, d)} />}
      </Table.Td>
    </Table.Tr>
  );
}
