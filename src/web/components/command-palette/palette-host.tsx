import { lazy, Suspense, useEffect, useState } from 'react';

const CommandPalette = lazy(() =>
  import('./command-palette.tsx').then((module) => ({ default: module.CommandPalette })),
);

/**
 * Listens for the first Ctrl/⌘+K, then loads the palette (Spotlight and its styles are not part of any page's
 * first load). Once loaded, the palette handles the shortcut itself.
 */
export function PaletteHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setWanted(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette openNow />
    </Suspense>
  );
}
