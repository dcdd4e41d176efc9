import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AuthorizationRequest, PushMessageUser } from '../../../shared/contract/index.ts';
import { peopleQueries } from '../../api/queries/people-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

/** A user name as a link to the person's page, where everything of theirs is; plain text for those who may not open it. */
export function PersonLink({ userName }: { userName: string }) {
  const { session } = useSession();
  if (!endpointAccess(session, peopleQueries.detail.endpoint).allowed) return <UserText>{userName}</UserText>;
  return (
    <RouterAnchor to="/people/$userName" params={{ userName }} size="sm" underline="always">
      <UserText>{userName}</UserText>
    </RouterAnchor>
  );
}

/**
 * "Their devices, codes and sign-ins": the way from somewhere else about the person (an account) to their page, shown
 * only to those who may open it (Read on Security).
 */
export function PersonPageLink({ userName, size = 'sm' }: { userName: string; size?: 'xs' | 'sm' }) {
  const { session } = useSession();
  if (!endpointAccess(session, peopleQueries.detail.endpoint).allowed) return null;
  return (
    <RouterAnchor to="/people/$userName" params={{ userName }} size={size} w="fit-content">
      Their devices, codes and sign-ins
    </RouterAnchor>
  );
}

/** The person's page as the server answers it, when this person may read it (the links below say nothing else). */
function usePerson(userName: string) {
  const { session } = useSession();
  const allowed = endpointAccess(session, peopleQueries.detail.endpoint).allowed;
  // No loader asks for it here: an earlier failure is asked again when this mounts.
  return useQuery({ ...peopleQueries.detail(userName), enabled: allowed, retryOnMount: true });
}

function NotKnown() {
  return (
    <Text span size="sm" c="dimmed">
      Not known
    </Text>
  );
}

/** The push user an authorized request registered, as a link; nothing while unknown. */
export function RegisteredPushUserLink({ request }: { request: AuthorizationRequest }) {
  const person = usePerson(request.UserName);
  const id = person.data?.Requests.find((item) => item.Id === request.Id)?.PushMessageUserId;
  if (!id) return person.isSuccess ? <NotKnown /> : null;
  return (
    <RouterAnchor to="/push-users/$id" params={{ id }} size="sm">
      Push user #{id}
    </RouterAnchor>
  );
}

/** The request that registered a push user, as a link; nothing while unknown. */
export function RegisteringRequestLink({ user }: { user: PushMessageUser }) {
  const person = usePerson(user.UserName);
  const id = person.data?.Devices.find((item) => item.Id === user.Id)?.AuthorizationRequestId;
  if (!id) return person.isSuccess ? <NotKnown /> : null;
  return (
    <RouterAnchor to="/authorization-requests/$id" params={{ id }} size="sm">
      Request #{id}
    </RouterAnchor>
  );
}
