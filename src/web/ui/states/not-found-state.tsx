import { IconMapOff } from '@tabler/icons-react';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { useSession } from '../../session/session-context.tsx';
import { landingPage, PAGES, type Page } from '../../wiring/pages.tsx';
import { RouterButton } from '../router-links.tsx';
import { MessageState } from './message-state.tsx';

/**
 * `back`: the list the missing thing belongs to (a missing push user leads back to Push users); without it, the first
 * page this person can use.
 */
export function NotFoundState({ what = 'page', back }: { what?: string; back?: Page }) {
  const { session } = useSession();
  const { demo } = useDemoMode();
  // The way on is the list it belongs to, or else the first page this person can use (a signed-out visitor's is the
  // sign-in page).
  const home = session ? (back?.to ?? landingPage(session, demo)) : '/login';
  const label = session ? (back?.label ?? Object.values(PAGES).find((page) => page.to === home)?.label) : 'Sign in';
  return (
    <MessageState
      icon={<IconMapOff />}
      headingLevel={1}
      title={`No such ${what}`}
      description={`The ${what} you asked for does not exist. It may have been removed, or the link is mistyped.`}
    >
      <RouterButton to={home} variant="default">
        {session ? `Go to ${label?.toLowerCase() ?? 'the start'}` : 'Sign in'}
      </RouterButton>
    </MessageState>
  );
}
