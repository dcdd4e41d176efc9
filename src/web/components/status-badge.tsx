import { Badge, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

export interface StatusBadgeProps {
  color: MantineColor;
  icon?: ReactNode;
  children: ReactNode;
}

/** A status as a word with colour and icon, never colour alone. */
export function StatusBadge({ color, icon, children }: StatusBadgeProps) {
  return (
    <Badge color={color} variant="light" leftSection={icon} tt="none" fw={600} size="md">
      {children}
    </Badge>
  );
}
