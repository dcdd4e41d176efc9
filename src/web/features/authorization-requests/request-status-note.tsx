import { Stack, Text } from '@mantine/core';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { UserText } from '../../components/user-text.tsx';
import type { RequestDisplayStatus } from './request-status.ts';
import { RequestStatusBadge } from './request-status-badge.tsx';
import type { RowChange } from './use-live-queue.ts';

/** True when the list still shows a request as pending but someone else has decided it meanwhile. */
export function decidedElsewhere(
  changed: RowChange | undefined,
  status: RequestDisplayStatus | null,
): changed is RowChange {
  return changed !== undefined && changed.Status !== 'Pending' && status === 'Pending';
}

export interface RequestStatusNoteProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  changed: RowChange | undefined;
  align?: 'flex-start' | 'flex-end';
}

/** A row's status badge and who decided it, or the status someone else just gave it (live greying). */
export function RequestStatusNote({ request, status, changed, align = 'flex-start' }: RequestStatusNoteProps) {
  return (
    <Stack gap={2} align={align}>
      {decidedElsewhere(changed, status) ? (
        <>
          <RequestStatusBadge status={changed.Status as RequestDisplayStatus} />
          <Text size="xs" c="dimmed">
            {changed.ChangedBy ? (
              <>
                just now by <UserText>{changed.ChangedBy}</UserText>
              </>
            ) : (
              'just now'
            )}
          </Text>
        </>
      ) : (
        <>
          {status && <RequestStatusBadge status={status} />}
          {request.DecidedBy && (
            <Text size="xs" c="dimmed">
              by <UserText>{request.DecidedBy}</UserText>
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
