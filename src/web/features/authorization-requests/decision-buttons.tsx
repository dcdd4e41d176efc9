import { Group } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { type AuthorizationRequest, endpoints } from '../../../shared/contract/index.ts';
import { PermissionButton } from '../../components/permission-button.tsx';
import type { Decision } from './decision.ts';

export interface DecisionButtonsProps {
  request: AuthorizationRequest;
  onDecide: (decision: Decision) => void;
  size?: 'xs' | 'sm';
}

export function DecisionButtons({ request, onDecide, size = 'xs' }: DecisionButtonsProps) {
  const who = `${request.UserName}'s ${request.Manufacturer} ${request.Model}`;
  return (
    <Group gap={6} wrap="nowrap">
      <PermissionButton
        endpoint={endpoints.authorizeDevice}
        size={size}
        leftSection={<IconCheck size={14} />}
        onClick={() => onDecide('approve')}
        aria-label={`Approve ${who}`}
      >
        Approve
      </PermissionButton>
      <PermissionButton
        endpoint={endpoints.authorizeDevice}
        size={size}
        color="red"
        variant="light"
        leftSection={<IconX size={14} />}
        onClick={() => onDecide('reject')}
        aria-label={`Reject ${who}`}
      >
        Reject
      </PermissionButton>
    </Group>
  );
}
