import { lazy, Suspense, useState } from 'react';
import { useAfterFirstPaint } from '../../lib/loading/use-after-first-paint.ts';
import type { SessionIdentity } from '../../session/session-store.ts';
import { UserMenuButton } from './user-menu-button.tsx';

// The menu (Mantine's Menu and its keyboard handling: ~7 KB gzip) is not needed to paint a signed-in page: the
// button shows at once and the menu code loads once the page is committed. A click that comes first opens the menu when
// it arrives.
const UserMenuDropdown = lazy(() =>
  import('./user-menu-dropdown.tsx').then((module) => ({ default: module.UserMenuDropdown })),
);

export function UserMenu({ session }: { session: SessionIdentity }) {
  const [clickedEarly, setClickedEarly] = useState(false);
  const afterFirstPaint = useAfterFirstPaint();
  const button = <UserMenuButton session={session} onClick={() => setClickedEarly(true)} />;
  if (!afterFirstPaint) return button;
  return (
    <Suspense fallback={button}>
      <UserMenuDropdown session={session} defaultOpened={clickedEarly} />
    </Suspense>
  );
}
