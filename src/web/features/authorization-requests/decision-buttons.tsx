import { Group } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { type AuthorizationRequest, endpoints } from '../../../shared/contract/index.ts';
import { PermissionButton } from '../../components/permission-button.tsx';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import type { Decision } from './decision.ts';

export interface DecisionButtonsProps {
  request: AuthorizationRequest;
  onDecide: (decision: Decision) => void;
  size?: 'xs' | 'sm';
  /** Phone card: the two buttons share the card's full width at touch height. */
  touch?: boolean;
  /** A table short of room: the buttons may stack. */
  wrap?: boolean;
}

export function DecisionButtons({ request, onDecide, size = 'xs', touch = false, wrap = false }: DecisionButtonsProps) {
  const who = `${request.UserName}'s ${request.Manufacturer} ${request.Model}`;
  const buttonSize = touch ? 'md' : size;
  const iconSize = touch ? 18 : 14;
  return (
    <Group gap={touch ? 'sm' : 6} wrap={wrap ? 'wrap' : 'nowrap'} grow={touch} w={touch ? '100%' : undefined}>
      <PermissionButton
        endpoint={endpoints.authorizeDevice}
        size={buttonSize}
        h={touch ? TOUCH_TARGET : undefined}
        px={touch ? 'xs' : undefined}
        leftSection={<IconCheck size={iconSize} />}
        onClick={() => onDecide('approve')}
        aria-label={`Approve ${who}`}
      >
        Approve
      </PermissionButton>
      <PermissionButton
        endpoint={endpoints.authorizeDevice}
        size={buttonSize}
        h={touch ? TOUCH_TARGET : undefined}
        px={touch ? 'xs' : undefined}
        color="red"
        variant="light"
        leftSection={<IconX size={iconSize} />}
        onClick={() => onDecide('reject')}
        aria-label={`Reject ${who}`}
      >
        Reject
      </PermissionButton>
    </Group>
  );
}
