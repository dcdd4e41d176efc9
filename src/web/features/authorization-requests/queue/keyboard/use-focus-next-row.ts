import { type RefObject, useCallback, useEffect, useState } from 'react';
import type { VirtualTableHandle } from '../../../../ui/lists/virtual/use-window-list.ts';

/**
 * After a decision the decided row may vanish; keyboard users keep their place by landing on the next row
 * (or the previous one when it was last). Rows are virtualized, so the table first scrolls it into its window.
 */
export function useFocusNextRow(visibleIds: readonly number[], table?: RefObject<VirtualTableHandle | null>) {
  const [focusId, setFocusId] = useState<number | null>(null);

  const focusAfter = useCallback(
    (decidedId: number) => {
      const index = visibleIds.indexOf(decidedId);
      const rest = visibleIds.filter((id) => id !== decidedId);
      const next = rest[Math.min(Math.max(index, 0), rest.length - 1)];
      setFocusId(next ?? null);
    },
    [visibleIds],
  );

  useEffect(() => {
    if (focusId === null) return;
    let frame = 0;
    let tries = 0;
    // The dialog returns focus to its trigger when it closes; take it after that.
    const attempt = () => {
      const element = document.querySelector<HTMLElement>(`[data-request-focus="${focusId}"]`);
      if (element) {
        element.focus();
        setFocusId(null);
        return;
      }
      if (tries === 0) {
        const index = visibleIds.indexOf(focusId);
        if (index >= 0) table?.current?.scrollToIndex(index);
      }
      if (++tries < 10) frame = requestAnimationFrame(attempt);
      else setFocusId(null);
    };
    frame = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(frame);
  }, [focusId, visibleIds, table]);

  return focusAfter;
}
