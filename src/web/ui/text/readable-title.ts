/** Mantine's light green/orange alert titles miss WCAG AA contrast on their tint; body text colour passes. */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } } as const;
