import type { ReactNode } from 'react';
import type { Endpoint } from '../../shared/contract/index.ts';
import { endpointAccess } from '../session/permissions.ts';
import { useSession } from '../session/session-context.tsx';
import { NoPermissionState } from './no-permission-state.tsx';
import { UnavailableState } from './unavailable-state.tsx';

export interface EndpointGateProps {
  endpoint: Endpoint;
  feature: string;
  children: ReactNode;
}

/** Renders a page only when its endpoint exists in the selected version and the person may read it. */
export function EndpointGate({ endpoint, feature, children }: EndpointGateProps) {
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
