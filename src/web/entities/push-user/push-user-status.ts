import type { MantineColor } from '@mantine/core';
import {
  PUSH_USER_STATUS_VALUES,
  type PushUserStatus,
  PushUserStatusCode,
  type PushUserStatusName,
  statusName,
} from '../../../shared/contract/index.ts';

/** How the dashboard shows each push-user status; the numbers and names come from the contract. */
interface PushUserStatusLook {
  color: MantineColor;
  /** The verb of a button that sets it. */
  action: string;
  /** Setting it stops a device's push messages: asked for first, painted red. */
  destructive: boolean;
}

export const PUSH_USER_STATUS_LOOK: Record<PushUserStatus, PushUserStatusLook> = {
  [PushUserStatusCode.Active]: { color: 'green', action: 'Activate', destructive: false },
  [PushUserStatusCode.Disabled]: { color: 'orange', action: 'Disable', destructive: false },
  [PushUserStatusCode.Deleted]: { color: 'gray', action: 'Delete', destructive: true },
};

export const STATUS_VALUES = PUSH_USER_STATUS_VALUES;

/** The list's `?status=` filter word for a status (its name in lower case). */
export type StatusFilterWord = Lowercase<PushUserStatusName>;

export function statusFilterWord(status: PushUserStatus): StatusFilterWord {
  return statusName(status).toLowerCase() as StatusFilterWord;
}

export const FILTER_STATUS = Object.fromEntries(
  STATUS_VALUES.map((status) => [statusFilterWord(status), status]),
) as Record<StatusFilterWord, PushUserStatus>;
