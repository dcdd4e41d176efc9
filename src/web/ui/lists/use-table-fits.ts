import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** Below this container width (px) the table tightens: narrower cell padding, and rows may wrap their actions. */
const COMPACT_BELOW = 900;

/**
 * Whether the table fits its container: at least `minWidth`, and no wider than the container once rendered (long
 * names can make it so; then the cards take over until the container grows). The first render guesses from the
 * window so a desktop does not build cards it throws away; the container is measured when the browser lays the page
 * out (a ResizeObserver's first call, before paint) and again on resize or rotation. Reading the width in a layout
 * effect instead would lay out the whole new page in the middle of its first commit.
 */
export function useTableFits(minWidth: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [needed, setNeeded] = useState(minWidth);
  const known = width ?? (typeof window === 'undefined' ? minWidth : window.innerWidth);
  const fits = known >= Math.max(minWidth, needed);
  const compact = known < COMPACT_BELOW;
  // Only what the rendering depends on: a width that changes neither keeps the state, and React skips the render.
  const outcome = useRef({ fits, compact });
  outcome.current = { fits, compact };
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      // 0 means not laid out (a hidden tab): keep the guess.
      const measured = element.clientWidth;
      if (measured <= 0) return;
      const now = outcome.current;
      if (measured >= Math.max(minWidth, needed) === now.fits && measured < COMPACT_BELOW === now.compact) return;
      // Before paint: a wrong guess is never shown.
      flushSync(() => setWidth(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [minWidth, needed]);
  useLayoutEffect(() => {
    const table = fits ? ref.current?.querySelector('table') : null;
    const element = ref.current;
    if (!table || !element || typeof ResizeObserver === 'undefined') return;
    // Its first call comes once the table is laid out.
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0 && table.offsetWidth > element.clientWidth + 1) {
        const wide = table.offsetWidth;
        const measured = element.clientWidth;
        flushSync(() => {
          setNeeded((old) => Math.max(old, wide));
          setWidth(measured);
        });
      }
    });
    observer.observe(table);
    return () => observer.disconnect();
  }, [fits]);
  return [ref, fits, compact] as const;
}
