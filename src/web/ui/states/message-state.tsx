import { EmptyState, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

export interface MessageStateProps {
  icon: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  color?: MantineColor;
  children?: ReactNode;
  /** When the panel is the whole page (not found): its title is the page's heading at this level. */
  headingLevel?: 1 | 2;
}

/** The one look for "nothing to show", "not available" and "something failed" panels. */
export function MessageState({ icon, title, description, color = 'gray', children, headingLevel }: MessageStateProps) {
  return (
    <EmptyState
      py={48}
      color={color}
      icon={icon}
      title={headingLevel ? <Heading level={headingLevel}>{title}</Heading> : title}
      description={description}
      styles={{ description: { maxWidth: 520 } }}
    >
      {children && <EmptyState.Actions>{children}</EmptyState.Actions>}
    </EmptyState>
  );
}

function Heading({ level, children }: { level: 1 | 2; children: ReactNode }) {
  const Tag = level === 1 ? 'h1' : 'h2';
  return <Tag style={{ margin: 0, font: 'inherit' }}>{children}</Tag>;
}
