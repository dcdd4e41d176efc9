import { Button, type ButtonProps, VisuallyHidden } from '@mantine/core';
import { type MouseEvent, type ReactElement, type ReactNode, type Ref, useId } from 'react';
import type { Endpoint } from '../../shared/contract/index.ts';
import { endpointAccess } from '../session/permissions.ts';
import { useSession } from '../session/session-context.tsx';
import { LazyTooltip, type TriggerProps } from './overlays/lazy-tooltip.tsx';

/** What a refused control carries: inert, yet focusable, so that its reason can be reached. */
export interface RefusedProps {
  'data-disabled': true;
  'aria-disabled': 'true';
  'aria-describedby': string;
  onClick: (event: MouseEvent<HTMLElement>) => void;
}

export interface PermittedProps {
  /** The endpoint the control calls; its catalogue entry says what permission and version it needs. */
  endpoint: Endpoint;
  /** Renders the control: as it is when allowed (`null`), with the refused props spread last otherwise. */
  children: (refused: RefusedProps | null) => ReactElement<TriggerProps>;
}

/** A refusal's reason shows on focus and touch too: it is what a keyboard or phone user needs to read. */
const REFUSAL_EVENTS = { hover: true, focus: true, touch: true };

/**
 * A control that is disabled, with the reason on hover and focus, when the person's permissions or API version do
 * not allow what it does. It stays focusable (data-disabled, not disabled) so the reason is reachable.
 */
export function Permitted({ endpoint, children }: PermittedProps) {
  const { session } = useSession();
  const reasonId = useId();
  const access = endpointAccess(session, endpoint);
  if (access.allowed) return children(null);
  const refused: RefusedProps = {
    'data-disabled': true,
    'aria-disabled': 'true',
    'aria-describedby': reasonId,
    onClick: (event) => event.preventDefault(),
  };
  return (
    <>
      <LazyTooltip label={access.message} events={REFUSAL_EVENTS}>
        {children(refused)}
      </LazyTooltip>
      <VisuallyHidden id={reasonId}>{access.message}</VisuallyHidden>
    </>
  );
}

export interface PermissionButtonProps extends ButtonProps {
  /** The endpoint the button calls; its catalogue entry says what permission and version it needs. */
  endpoint: Endpoint;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
  'aria-label'?: string;
}

/** A Mantine button that is Permitted for its endpoint. */
export function PermissionButton({ endpoint, onClick, children, ...buttonProps }: PermissionButtonProps) {
  return (
    <Permitted endpoint={endpoint}>
      {(refused) => (
        <Button {...buttonProps} onClick={onClick} {...refused}>
          {children}
        </Button>
      )}
    </Permitted>
  );
}
