import { Badge, type MantineColor } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { BADGE_RADIUS_VALUE } from '../theme.ts';
import classes from './status-badge.module.css';

export interface StatusBadgeProps {
  color: MantineColor;
  icon?: ReactNode;
  children: ReactNode;
}

/**
 * A status as a word with colour and icon, never colour alone. The word keeps the body text colour on a tinted
 * background: coloured text on a light tint misses AA contrast for yellow, orange and green.
 *
 * Mantine's light Badge as plain elements: its classes, and the CSS variables its Styles API documents, set here.
 * Every row of a list shows one, and the component resolves its styles on each render.
 */
export function StatusBadge({ color, icon, children }: StatusBadgeProps) {
  const look = {
    '--badge-bg': `var(--mantine-color-${color}-light)`,
    '--badge-color': `var(--mantine-color-${color}-light-color)`,
    '--badge-bd': `calc(0.0625rem * var(--mantine-scale)) solid var(--mantine-color-${color}-light-hover)`,
    '--badge-radius': BADGE_RADIUS_VALUE,
  } as CSSProperties;
  return (
    <span
      className={`${Badge.classes.root} ${classes.badge}`}
      data-variant="light"
      data-with-left-section={icon ? true : undefined}
      style={look}
    >
      {icon && (
        <span className={Badge.classes.section} data-position="left">
          {icon}
        </span>
      )}
      <span className={`${Badge.classes.label} ${classes.label}`}>{children}</span>
    </span>
  );
}
