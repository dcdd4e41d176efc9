import { useCallback, useEffect, useState } from 'react';

/**
 * After a decision the decided row may vanish; keyboard users keep their place by landing on the next row
 * (or the previous one when it was last).
 */
export function useFocusNextRow(visibleIds: readonly number[]) {
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
    // The dialog returns focus to its trigger when it closes; take it after that.
    const frame = requestAnimationFrame(() => {
      document.querySelector<HTMLElement>(`[data-request-focus="${focusId}"]`)?.focus();
      setFocusId(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [focusId]);

  return focusAfter;
}
