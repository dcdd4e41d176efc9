import { type RefObject, useEffect } from 'react';

/**
 * While `isOpen()` says so, focus that lands outside the dialog holding `target` goes back to `target`. For a dialog
 * opened over one still arriving: the command palette opened while an account's drawer was loading lost its focus to
 * the drawer's close button when the drawer's focus trap started, and the Enter meant for the palette closed the
 * drawer. The overlay keeps clicks off the page, so only code moves focus out (a late dialog, an autofocus).
 * `isOpen` is read at each focus change, not from a render, so a dialog that is closing lets focus go.
 */
export function useKeepFocus(target: RefObject<HTMLElement | null>, isOpen: () => boolean): void {
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const element = target.current;
      const dialog = element?.closest('[role="dialog"]');
      if (!element || !dialog || !isOpen() || dialog.contains(event.target as Node)) return;
      element.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [target, isOpen]);
}
