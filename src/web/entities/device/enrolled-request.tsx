import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconDeviceMobileCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import {
  type AuthorizationRequest,
  ENROLLMENT_CODE_LIFETIME_MINUTES,
  endpoints,
  parseTimestamp,
} from '../../../shared/contract/index.ts';
import { authorizationRequestQueries } from '../../api/queries/queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { lazyChunk } from '../../ui/overlays/lazy-chunk.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { DeviceSummary } from './device-summary.tsx';

// Its own chunk, as the queue loads it: a static import here would fold it into this dialog's.
const DecisionDialog = lazyChunk(
  () => import('../request/decision-dialog.tsx'),
  (module) => module.DecisionDialog,
);

/**
 * The request the phone made with this dialog's code: the person's newest pending request made since the code was,
 * both times the service's (the code's expiry less its lifetime), so this browser's clock does not matter. Read from
 * the pending queue, which the live change stream (or polling) keeps fresh; null until there is one, and always for
 * someone who may not read the queue. Once found it stays: approved, it leaves the pending queue, and the dialog
 * deciding on it must outlive that to say so and close.
 */
export function useEnrolledRequest(userName: string, codeExpiresUtc: string | undefined): AuthorizationRequest | null {
  const { session } = useSession();
  const allowed = endpointAccess(session, endpoints.listAuthorizationRequests).allowed;
  const pending = useQuery({
    ...authorizationRequestQueries.list({ view: 'pending' }),
    enabled: allowed && codeExpiresUtc !== undefined,
  });
  const [found, setFound] = useState<AuthorizationRequest | null>(null);
  const expires = codeExpiresUtc ? parseTimestamp(codeExpiresUtc)?.getTime() : undefined;
  const current = newestSince(pending.data, userName, expires);
  if (current && current.Id !== found?.Id) setFound(current);
  if (!allowed) return null;
  return current ?? found;
}

/** The person's newest request in `pending` made since the code was (its expiry less its lifetime). */
function newestSince(
  pending: AuthorizationRequest[] | undefined,
  userName: string,
  expires: number | undefined,
): AuthorizationRequest | null {
  if (expires === undefined || !pending) return null;
  const madeAt = expires - ENROLLMENT_CODE_LIFETIME_MINUTES * 60_000;
  const name = userName.toLowerCase();
  const mine = pending.filter(
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
        <Suspense fallback={null}>
          <DecisionDialog
            target={{ request, decision: 'approve' }}
            onClose={() => setApproving(false)}
            onDecided={onDone}
          />
        </Suspense>
      )}
    </Stack>
  );
}
