import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** Below this window width (px) the dashboard is laid out for a phone: dialogs become full-screen sheets. */
export const PHONE_MAX_WIDTH = 600;
export const PHONE_QUERY = `(max-width: ${em(PHONE_MAX_WIDTH - 0.02)})`;

/** Height (px) of touch targets in the phone layouts: above the 44 px minimum of WCAG 2.5.5 and Apple's HIG. */
export const TOUCH_TARGET = 48;

/** True on a phone-sized window; read synchronously on the first render so nothing flashes in the desktop layout. */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
}

/** Same as usePhone, for code outside React (modals opened through @mantine/modals). */
export function isPhone(): boolean {
  return typeof window !== 'undefined' && 'matchMedia' in window && window.matchMedia(PHONE_QUERY).matches;
}

/** Modal props that make a dialog a full-screen sheet, sliding up from the bottom, on a phone. */
export function sheetProps(phone: boolean) {
  return phone
    ? ({ fullScreen: true, radius: 0, transitionProps: { transition: 'slide-up', duration: 200 } } as const)
    : {};
}

export function useSheetProps() {
  return sheetProps(usePhone());
}
