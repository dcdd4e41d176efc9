import { Avatar, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ComponentProps } from 'react';
import type { SessionIdentity } from '../../session/session-store.ts';
import classes from './user-menu-button.module.css';

function initials(userName: string): string {
  const name = userName.split('\\').pop() ?? userName;
  return name.slice(0, 2).toUpperCase();
}

export interface UserMenuButtonProps extends Omit<ComponentProps<'button'>, 'children'> {
  session: SessionIdentity;
}

/**
 * The account button in the header; the menu it opens lives in user-menu-dropdown.tsx. Plain elements with Mantine's
 * classes: every signed-in page renders it first.
 */
export function UserMenuButton({ session, className, ...props }: UserMenuButtonProps) {
  return (
    // Named by its content, so the visible user name is in it (WCAG 2.5.3 Label in Name); the initials are decoration.
    <button
      type="button"
      data-testid="user-menu"
      className={`mantine-focus-auto ${UnstyledButton.classes.root}${className ? ` ${className}` : ''}`}
      {...props}
    >
      <span className={classes.content}>
        <span className={`${Avatar.classes.root} ${classes.avatar}`} data-variant="filled" aria-hidden="true">
          <span className={Avatar.classes.placeholder}>{initials(session.userName)}</span>
        </span>
        <span className={`${classes.name} mantine-visible-from-sm`}>{session.userName}</span>
        <span className={VisuallyHidden.classes.root}>account menu</span>
        <IconChevronDown size={14} aria-hidden />
      </span>
    </button>
  );
}
