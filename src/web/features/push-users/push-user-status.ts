import type { MantineColor } from '@mantine/core';
import { PUSH_USER_STATUSES, type PushUserStatus } from '../../../shared/contract/index.ts';
import type { StatusFilter } from './push-user-search.ts';

export const STATUS_VALUES = [1, 2, 3] as const satisfies readonly PushUserStatus[];

export const STATUS_COLOR: Record<PushUserStatus, MantineColor> = { 1: 'green', 2: 'orange', 3: 'gray' };

export function statusName(status: PushUserStatus): string {
  return PUSH_USER_STATUSES[status];
}

export const FILTER_STATUS: Record<Exclude<StatusFilter, 'all'>, PushUserStatus> = {
  active: 1,
  disabled: 2,
  deleted: 3,
};
