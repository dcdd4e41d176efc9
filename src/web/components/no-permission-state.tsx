import { IconLock } from '@tabler/icons-react';
import type { Permission } from '../../shared/contract/index.ts';
import { MessageState } from './message-state.tsx';

export interface NoPermissionStateProps {
  feature: string;
  permission: Permission;
  userName: string;
}

export function NoPermissionState({ feature, permission, userName }: NoPermissionStateProps) {
  return (
    <MessageState
      color="yellow"
      icon={<IconLock />}
      title={`You cannot view ${feature.toLowerCase()}`}
      description={`Viewing ${feature.toLowerCase()} requires the ${permission} permission on Security, which ${userName} does not have. Ask an administrator to grant it. You can still submit two-factor tokens for your own instructions.`}
    />
  );
}
