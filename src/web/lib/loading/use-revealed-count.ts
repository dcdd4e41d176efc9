import { useEffect, useState } from 'react';

/**
 * How many of a list's `total` items to render: `first` in the component's first render (what a phone's first screen
 * shows), then `step` more in each following task until all are. Each task renders and commits a few items, so no
 * task of the page's load holds the main thread long (on a phone's slower CPU a dozen cards at once did); a browser
 * paints between them. Items added later (a search's results, a refresh) render at once.
 */
export function useRevealedCount(total: number, first: number, step: number): number {
  const [revealed, setRevealed] = useState(first);
  useEffect(() => {
    if (revealed >= total) return;
    const timer = setTimeout(() => setRevealed((count) => count + step), 0);
    return () => clearTimeout(timer);
  }, [revealed, total, step]);
  return revealed >= total ? total : revealed;
}
