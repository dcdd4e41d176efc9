import { Group, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { DeviceSummary } from '../../../entities/device/device-summary.tsx';
import type { Decision } from '../../../entities/request/decision.ts';
import { RequestContextLine } from '../../../entities/request/request-context.tsx';
import type { RequestDisplayStatus } from '../../../entities/request/request-status.ts';
import { RouterAnchor } from '../../../ui/router-links.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { UserText } from '../../../ui/text/user-text.tsx';
import { DecisionButtons } from '../decision-buttons.tsx';
import { decidedElsewhere, RequestStatusNote } from '../request-status-note.tsx';
import type { RowChange } from '../use-live-queue.ts';

export interface RequestCardProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  /** Decided by someone else while this list was on screen. */
  changed?: RowChange | undefined;
  /** Select mode: the decision buttons step aside for the bulk actions. */
  selecting: boolean;
  /** The status badge; the pending queue shows it only for a request someone else decided meanwhile. */
  showStatus?: boolean;
}

/** One request in the phone rendering of the queue: who, which device, when, status, and Approve / Reject. */
export const RequestCard = memo(function RequestCard({
  request,
  status,
  onDecide,
  changed,
  selecting,
  showStatus = true,
}: RequestCardProps) {
  const stale = decidedElsewhere(changed, status);
  return (
    <Stack
      gap="sm"
      data-request-id={request.Id}
      data-stale={stale ? 'true' : undefined}
      style={stale ? { opacity: 0.55 } : undefined}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={0} miw={0}>
          {/* Padding widens the link's touch area to the card's 44 px without moving the text. */}
          <RouterAnchor
            to="/authorization-requests/$id"
            params={{ id: request.Id }}
            fw={600}
            display="inline-block"
            py={12}
            my={-12}
            data-request-focus={request.Id}
          >
            <UserText>{request.UserName}</UserText>
          </RouterAnchor>
          <Text size="xs" c="dimmed" truncate>
            <UserText>{request.UserEmail}</UserText>
          </Text>
        </Stack>
        {(showStatus || stale) && (
          <RequestStatusNote request={request} status={status} changed={changed} align="flex-end" />
        )}
      </Group>
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="sm">
        <DeviceSummary
          deviceType={request.DeviceType}
          manufacturer={request.Manufacturer}
          model={request.Model}
          osVersion={request.OsVersion}
        />
        <Timestamp value={request.CreatedTimestampUtc} size="xs" dimmed style={{ flexShrink: 0 }} />
      </Group>
      {status === 'Pending' && <RequestContextLine id={request.Id} />}
      {status === 'Pending' && !stale && !selecting && (
        <DecisionButtons request={request} onDecide={(decision) => onDecide(request, decision)} touch />
      )}
    </Stack>
  );
});
