import type { ReactNode } from 'react';
import type { HasEndpoint } from '../../api/queries/endpoint-query.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { NoPermissionState } from './no-permission-state.tsx';
import { UnavailableState } from './unavailable-state.tsx';

export interface EndpointGateProps {
  /** The query the page shows (a factory from api/queries.ts or its options): its catalogue entry is the gate's. */
  query: HasEndpoint;
  feature: string;
  children: ReactNode;
}

/** Renders a page only when its query's endpoint exists in the selected version and the person may read it. */
export function EndpointGate({ query, feature, children }: EndpointGateProps) {
  const { endpoint } = query;
  const { session } = useSession();
  if (!session) return null;
  const access = endpointAccess(session, endpoint);
  if (access.allowed) return children;
  if (access.reason === 'unavailable') {
    return <UnavailableState feature={feature} reason={access.message} version={session.apiVersion} />;
  }
  if (access.reason === 'forbidden') {
    return (
      <NoPermissionState
        feature={feature}
        permission={access.permission}
        userName={session.userName}
        entity={endpoint.access.kind === 'permission' ? endpoint.access.entity : 'Security'}
      />
    );
  }
  return null;
}
