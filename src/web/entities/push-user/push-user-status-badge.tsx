import { IconCircleCheck, IconCircleMinus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { type PushUserStatus, PushUserStatusCode, statusName } from '../../../shared/contract/index.ts';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { PUSH_USER_STATUS_LOOK } from './push-user-status.ts';

const ICONS: Record<PushUserStatus, ReactNode> = {
  [PushUserStatusCode.Active]: <IconCircleCheck size={14} />,
  [PushUserStatusCode.Disabled]: <IconCircleMinus size={14} />,
  [PushUserStatusCode.Deleted]: <IconTrash size={14} />,
};

export function PushUserStatusBadge({ status }: { status: PushUserStatus }) {
  return (
    <StatusBadge color={PUSH_USER_STATUS_LOOK[status].color} icon={ICONS[status]}>
      {statusName(status)}
    </StatusBadge>
  );
}
