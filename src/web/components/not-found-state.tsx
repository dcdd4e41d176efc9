import { IconMapOff } from '@tabler/icons-react';
import { MessageState } from './message-state.tsx';
import { RouterButton } from './router-links.tsx';

export function NotFoundState({ what = 'page' }: { what?: string }) {
  return (
    <MessageState
      icon={<IconMapOff />}
      title={`No such ${what}`}
      description={`The ${what} you asked for does not exist. It may have been removed, or the link is mistyped.`}
    >
      <RouterButton to="/authorization-requests" variant="default">
        Go to authorization requests
      </RouterButton>
    </MessageState>
  );
}
