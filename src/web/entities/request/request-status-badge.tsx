import { IconCircleCheck, IconCircleX, IconClockHour4, IconGavel } from '@tabler/icons-react';
import { StatusBadge } from '../../ui/status-badge.tsx';
import type { RequestDisplayStatus } from './request-status.ts';

const LOOK = {
  Pending: { color: 'yellow', icon: <IconClockHour4 size={14} /> },
  Authorized: { color: 'green', icon: <IconCircleCheck size={14} /> },
  Rejected: { color: 'red', icon: <IconCircleX size={14} /> },
  Decided: { color: 'gray', icon: <IconGavel size={14} /> },
} as const;

export function RequestStatusBadge({ status }: { status: RequestDisplayStatus }) {
  const look = LOOK[status];
  return (
    <StatusBadge color={look.color} icon={look.icon}>
      {status}
    </StatusBadge>
  );
}
