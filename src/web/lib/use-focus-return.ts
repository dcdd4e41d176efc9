import { useMemo, useRef } from 'react';

/**
 * Gives focus back to what opened a dialog that the page unmounts on close (Mantine's own focus return runs only when
 * a mounted modal's `opened` turns false). Remember when opening; restore when the dialog closes without an outcome
 * that moves focus elsewhere (a decided request moves it to the next row).
 */
export function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return useMemo(
    () => ({
      remember() {
        const active = document.activeElement;
        opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      },
      restore() {
        const element = opener.current;
        opener.current = null;
        // After the dialog has gone: its focus trap lets go in the same frame.
        requestAnimationFrame(() => {
          if (element?.isConnected) element.focus();
        });
      },
    }),
    [],
  );
}
