import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries } from '../../api/queries/queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';

/** The pending count beside the queue link; it shares the queue's polled query, so it costs no extra call. */
export function NavPendingBadge() {
  const { session } = useSession();
  const allowed = endpointAccess(session, endpoints.listAuthorizationRequests).allowed;
  const { data } = useQuery({ ...authorizationRequestQueries.list({ view: 'pending' }), enabled: allowed });
  if (!allowed || data === undefined) return null;
  return (
    <Badge
      size="sm"
      circle={data.length < 10}
      variant={data.length > 0 ? 'filled' : 'light'}
      color={data.length > 0 ? 'red' : 'gray'}
      aria-label={`${data.length} pending`}
      data-testid="pending-count"
    >
      {data.length}
    </Badge>
  );
}
