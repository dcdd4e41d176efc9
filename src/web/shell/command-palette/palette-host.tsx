import { lazy, Suspense, useEffect, useState } from 'react';
import { onOpenPalette } from './open-palette.ts';

const CommandPalette = lazy(() =>
  import('./command-palette.tsx').then((module) => ({ default: module.CommandPalette })),
);

/**
 * Listens for the first Ctrl/⌘+K or the header's Find button, then loads the palette (Spotlight and its styles are
 * not part of any page's first load). Once loaded, the palette handles the shortcut itself; each press of the
 * button opens it again.
 */
export function PaletteHost() {
  const [opens, setOpens] = useState(0);
  useEffect(() => onOpenPalette(() => setOpens((count) => count + 1)), []);
  const loaded = opens > 0;
  useEffect(() => {
    if (loaded) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpens(1);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [loaded]);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette opens={opens} />
    </Suspense>
  );
}
