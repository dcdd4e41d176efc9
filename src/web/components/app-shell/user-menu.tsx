import { lazy, Suspense, useState } from 'react';
import type { StoredSession } from '../../session/session-store.ts';
import { UserMenuButton } from './user-menu-button.tsx';

// The menu (Mantine's Menu and its keyboard handling: ~7 KB gzip) is not needed to paint a signed-in page: the
// button shows at once and the menu code loads right after. A click that comes first opens the menu when it arrives.
const UserMenuDropdown = lazy(() =>
  import('./user-menu-dropdown.tsx').then((module) => ({ default: module.UserMenuDropdown })),
);

export function UserMenu({ session }: { session: StoredSession }) {
  const [clickedEarly, setClickedEarly] = useState(false);
  return (
    <Suspense fallback={<UserMenuButton session={session} onClick={() => setClickedEarly(true)} />}>
      <UserMenuDropdown session={session} defaultOpened={clickedEarly} />
    </Suspense>
  );
}
