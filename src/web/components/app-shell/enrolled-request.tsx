import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconDeviceMobileCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type AuthorizationRequest,
  ENROLLMENT_CODE_LIFETIME_MINUTES,
  endpoints,
  parseTimestamp,
} from '../../../shared/contract/index.ts';
import { authorizationRequestQueries } from '../../api/queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { DecisionDialog } from '../decision-dialog.tsx';
import { DeviceSummary } from '../device-summary.tsx';
import { READABLE_TITLE } from '../readable-title.ts';
import { RouterAnchor } from '../router-links.tsx';

/**
 * The request the phone made with this dialog's code: the person's newest pending request made since the code was,
 * both times the service's (the code's expiry less its lifetime), so this browser's clock does not matter. Read from
 * the pending queue, which the live change stream (or polling) keeps fresh; null until there is one, and always for
 * someone who may not read the queue.
 */
export function useEnrolledRequest(userName: string, codeExpiresUtc: string | undefined): AuthorizationRequest | null {
  const { session } = useSession();
  const allowed = endpointAccess(session, endpoints.listAuthorizationRequests).allowed;
  const pending = useQuery({
    ...authorizationRequestQueries.list({ view: 'pending' }),
    enabled: allowed && codeExpiresUtc !== undefined,
  });
  const expires = codeExpiresUtc ? parseTimestamp(codeExpiresUtc)?.getTime() : undefined;
  if (!allowed || expires === undefined || !pending.data) return null;
  const madeAt = expires - ENROLLMENT_CODE_LIFETIME_MINUTES * 60_000;
  const name = userName.toLowerCase();
  const mine = pending.data.filter(
    (request) =>
      request.UserName.toLowerCase() === name &&
      (parseTimestamp(request.CreatedTimestampUtc)?.getTime() ?? 0) >= madeAt,
  );
  return mine.reduce<AuthorizationRequest | null>(
    (newest, request) => (newest === null || request.Id > newest.Id ? request : newest),
    null,
  );
}

/** "Jane's Pixel 8 registered": what the dialog turns into once the phone used the code, with Approve at hand. */
export function EnrolledRequest({ request, onDone }: { request: AuthorizationRequest; onDone: () => void }) {
  const { session } = useSession();
  const mayDecide = endpointAccess(session, endpoints.authorizeDevice).allowed;
  const [approving, setApproving] = useState(false);
  return (
    <Stack gap="md" data-testid="enrolled-request">
      <Alert
        color="green"
        icon={<IconDeviceMobileCheck />}
        title={`${request.UserName}'s ${request.Model} registered`}
        styles={READABLE_TITLE}
      >
        <Stack gap={6}>
          <DeviceSummary
            deviceType={request.DeviceType}
            manufacturer={request.Manufacturer}
            model={request.Model}
            osVersion={request.OsVersion}
          />
          <Text size="sm">
            {mayDecide
              ? 'The phone used the code. Approve it once you know it is the phone in front of you; the code is spent.'
              : 'The phone used the code. It waits for an administrator to approve it; the code is spent.'}
          </Text>
        </Stack>
      </Alert>
      <Group justify="flex-end">
        <RouterAnchor to="/authorization-requests/$id" params={{ id: request.Id }} size="sm" onClick={onDone}>
          Open the request
        </RouterAnchor>
        {mayDecide && (
          <Button leftSection={<IconCheck size={16} />} onClick={() => setApproving(true)} data-autofocus>
            Approve
          </Button>
        )}
      </Group>
      {approving && (
        <DecisionDialog
          target={{ request, decision: 'approve' }}
          onClose={() => setApproving(false)}
          onDecided={onDone}
        />
      )}
    </Stack>
  );
}
