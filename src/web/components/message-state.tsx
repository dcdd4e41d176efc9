import { EmptyState, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

export interface MessageStateProps {
  icon: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  color?: MantineColor;
  children?: ReactNode;
}

/** The one look for "nothing to show", "not available" and "something failed" panels. */
export function MessageState({ icon, title, description, color = 'gray', children }: MessageStateProps) {
  return (
    <EmptyState
      py={48}
      color={color}
      icon={icon}
      title={title}
      description={description}
      styles={{ description: { maxWidth: 520 } }}
    >
      {children && <EmptyState.Actions>{children}</EmptyState.Actions>}
    </EmptyState>
  );
}
