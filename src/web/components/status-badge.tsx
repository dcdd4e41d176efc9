import { Badge, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

export interface StatusBadgeProps {
  color: MantineColor;
  icon?: ReactNode;
  children: ReactNode;
}

/**
 * A status as a word with colour and icon, never colour alone. The word keeps the body text colour on a tinted
 * background: coloured text on a light tint misses AA contrast for yellow, orange and green.
 */
export function StatusBadge({ color, icon, children }: StatusBadgeProps) {
  return (
    <Badge
      color={color}
      variant="light"
      size="md"
      tt="none"
      fw={600}
      leftSection={icon}
      styles={{
        root: { border: `1px solid var(--mantine-color-${color}-light-hover)`, minWidth: 'max-content' },
        label: { color: 'var(--mantine-color-text)' },
        section: { color: `var(--mantine-color-${color}-light-color)` },
      }}
    >
      {children}
    </Badge>
  );
}
