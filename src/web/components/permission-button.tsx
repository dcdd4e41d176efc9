import { Button, type ButtonProps, Tooltip, VisuallyHidden } from '@mantine/core';
import { type MouseEvent, type ReactNode, type Ref, useId } from 'react';
import type { Endpoint } from '../../shared/contract/index.ts';
import { endpointAccess } from '../session/permissions.ts';
import { useSession } from '../session/session-context.tsx';

export interface PermissionButtonProps extends ButtonProps {
  /** The endpoint the button calls; its catalogue entry says what permission and version it needs. */
  endpoint: Endpoint;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
  'aria-label'?: string;
}

/**
 * A button that is disabled, with the reason on hover and focus, when the person's permissions or API
 * version do not allow what it does. It stays focusable (data-disabled, not disabled) so the reason is reachable.
 */
export function PermissionButton({ endpoint, onClick, children, ...buttonProps }: PermissionButtonProps) {
  const { session } = useSession();
  const reasonId = useId();
  const access = endpointAccess(session, endpoint);
  if (access.allowed) {
    return (
      <Button {...buttonProps} onClick={onClick}>
        {children}
      </Button>
    );
  }
  return (
    <>
      <Tooltip label={access.message} events={{ hover: true, focus: true, touch: true }}>
        <Button
          {...buttonProps}
          data-disabled
          aria-disabled="true"
          aria-describedby={reasonId}
          onClick={(event) => event.preventDefault()}
        >
          {children}
        </Button>
      </Tooltip>
      <VisuallyHidden id={reasonId}>{access.message}</VisuallyHidden>
    </>
  );
}
