import { Button } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ComponentProps, CSSProperties, ReactNode } from 'react';
import { type AuthorizationRequest, endpoints } from '../../../shared/contract/index.ts';
import type { Decision } from '../../entities/request/decision.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { Permitted } from '../../ui/permission-button.tsx';
import classes from './decision-buttons.module.css';

export interface DecisionButtonsProps {
  request: AuthorizationRequest;
  onDecide: (decision: Decision) => void;
  size?: 'xs' | 'sm';
  /** Phone card: the two buttons share the card's full width at touch height. */
  touch?: boolean;
  /** A table short of room: the buttons may stack. */
  wrap?: boolean;
}

interface DecisionButtonProps extends ComponentProps<'button'> {
  size: 'xs' | 'sm' | 'md';
  icon: ReactNode;
}

/**
 * Mantine's Button as plain elements: its classes, with the size and colour variables set by the module. Every
 * pending row of the queue has two, and the component resolves its styles on each render. Refused, with the reason,
 * where the person may not decide (Permitted).
 */
function DecisionButton({ size, icon, className, children, ...props }: DecisionButtonProps) {
  return (
    <Permitted endpoint={endpoints.authorizeDevice}>
      {(refused) => (
        <button
          type="button"
          className={`mantine-focus-auto mantine-active ${Button.classes.root} ${classes.button}${className ? ` ${className}` : ''}`}
          data-size={size}
          data-with-left-section
          {...props}
          {...refused}
        >
          <span className={Button.classes.inner}>
            <span className={Button.classes.section} data-position="left">
              {icon}
            </span>
            <span className={Button.classes.label}>{children}</span>
          </span>
        </button>
      )}
    </Permitted>
  );
}

export function DecisionButtons({ request, onDecide, size = 'xs', touch = false, wrap = false }: DecisionButtonsProps) {
  const who = `${request.UserName}'s ${request.Manufacturer} ${request.Model}`;
  const buttonSize = touch ? 'md' : size;
  const iconSize = touch ? 18 : 14;
  const height = touch ? ({ '--button-height': `${TOUCH_TARGET}px` } as CSSProperties) : undefined;
  return (
    <div className={classes.buttons} data-touch={touch || undefined} data-wrap={wrap || undefined}>
      <DecisionButton
        size={buttonSize}
        style={height}
        icon={<IconCheck size={iconSize} />}
        onClick={() => onDecide('approve')}
        aria-label={`Approve ${who}`}
      >
        Approve
      </DecisionButton>
      <DecisionButton
        size={buttonSize}
        style={height}
        className={classes.reject}
        icon={<IconX size={iconSize} />}
        onClick={() => onDecide('reject')}
        aria-label={`Reject ${who}`}
      >
        Reject
      </DecisionButton>
    </div>
  );
}
