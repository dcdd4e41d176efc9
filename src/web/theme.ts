import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';

// A deep blue-violet: reads as "security product", and keeps white text above 4.5:1 on filled controls.
const brand: MantineColorsTuple = [
  '#eef1ff',
  '#dce1fb',
  '#b6c0f1',
  '#8d9de8',
  '#6b7fe0',
  '#556cdb',
  '#4962da',
  '#3a52c2',
  '#3149ae',
  '#243e9a',
];

/** Badges' corner radius: Mantine's Badge has it from the theme below. */
export const BADGE_RADIUS = 'sm';
/** The same radius as a CSS value, for the plain elements that carry Badge's classes (its --badge-radius). */
export const BADGE_RADIUS_VALUE = `var(--mantine-radius-${BADGE_RADIUS})`;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 7 },
  colors: { brand },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Transitions (dialogs, sheets, menus) are instant for people who asked their system for less motion.
  respectReducedMotion: true,
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "JetBrains Mono", Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  components: {
    Badge: { defaultProps: { radius: BADGE_RADIUS } },
    Tooltip: { defaultProps: { withArrow: true, openDelay: 150 } },
    Paper: { defaultProps: { withBorder: true } },
    Modal: {
      defaultProps: {
        centered: true,
        overlayProps: { backgroundOpacity: 0.45, blur: 2 },
        closeButtonProps: { 'aria-label': 'Close dialog' },
        // Mantine renders a dialog's title bar as <header>, which assistive technology takes for a second page banner.
        attributes: { header: { role: 'presentation' } },
      },
    },
    // As for Modal: the title bar is not a page banner.
    Drawer: { defaultProps: { attributes: { header: { role: 'presentation' } } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } },
      // Mantine's description grey (gray.6) falls under WCAG AA's 4.5:1 on a light toast; the dimmed colour passes.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
});

/** App-level colours that follow the colour scheme. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  // Mantine's default dimmed and dark-mode link colours fall under WCAG AA's 4.5:1 on these backgrounds.
  // The default error red (red.6) under a field misses it too.
  light: {
    '--app-main-bg': t.colors.gray[0],
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': t.colors.red[9],
  },
  dark: {
    '--app-main-bg': t.colors.dark[8],
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-anchor': brand[3],
    '--mantine-color-error': t.colors.red[4],
  },
});
