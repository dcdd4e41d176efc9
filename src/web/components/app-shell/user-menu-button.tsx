import { Avatar, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { MouseEventHandler, Ref } from 'react';
import type { StoredSession } from '../../session/session-store.ts';

function initials(userName: string): string {
  const name = userName.split('\\').pop() ?? userName;
  return name.slice(0, 2).toUpperCase();
}

export interface UserMenuButtonProps {
  session: StoredSession;
  ref?: Ref<HTMLButtonElement>;
  onClick?: MouseEventHandler<HTMLButtonElement>;
}

/** The account button in the header; the menu it opens lives in user-menu-dropdown.tsx. */
export function UserMenuButton({ session, ...props }: UserMenuButtonProps) {
  return (
    // Named by its content, so the visible user name is in it (WCAG 2.5.3 Label in Name); the initials are decoration.
    <UnstyledButton data-testid="user-menu" {...props}>
      <Group gap={8} wrap="nowrap">
        <Avatar size={32} radius="xl" color="brand" variant="filled" aria-hidden>
          {initials(session.userName)}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="sm">
          {session.userName}
        </Text>
        <VisuallyHidden>account menu</VisuallyHidden>
        <IconChevronDown size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}
