import { IconCircleCheck, IconCircleMinus, IconTrash } from '@tabler/icons-react';
import type { PushUserStatus } from '../../../shared/contract/index.ts';
import { StatusBadge } from '../../components/status-badge.tsx';
import { STATUS_COLOR, statusName } from './push-user-status.ts';

const ICONS = {
  1: <IconCircleCheck size={14} />,
  2: <IconCircleMinus size={14} />,
  3: <IconTrash size={14} />,
} as const;

export function PushUserStatusBadge({ status }: { status: PushUserStatus }) {
  return (
    <StatusBadge color={STATUS_COLOR[status]} icon={ICONS[status]}>
      {statusName(status)}
    </StatusBadge>
  );
}
