import { useEffect, useMemo, useRef, useState } from 'react';

/** What has focus now, unless that is only the page: the element a dialog's close gives focus back to. */
export function focusedElement(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * Focus back to `element` at once, and once more a frame later if the dialog's removal (its portal going) dropped it
 * to the page. At once, since a frame can come late on a busy page; the focus trap lets go of nothing meanwhile (it
 * only keeps Tab inside).
 */
export function giveFocusBack(element: HTMLElement | null): void {
  if (!element?.isConnected) return;
  element.focus();
  requestAnimationFrame(() => {
    if (element.isConnected && document.activeElement === document.body) element.focus();
  });
}

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
        opener.current = focusedElement();
      },
      restore() {
        const element = opener.current;
        opener.current = null;
        giveFocusBack(element);
      },
    }),
    [],
  );
}

/**
 * The same for a dialog that always gives focus back when it goes (Escape included): what had focus as it opened,
 * read while it first renders (before its focus trap moves focus in), gets it back when it unmounts.
 */
export function useFocusReturnOnUnmount(): void {
  const [opener] = useState(focusedElement);
  useEffect(() => () => giveFocusBack(opener), [opener]);
}
