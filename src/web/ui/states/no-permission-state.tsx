import { IconLock } from '@tabler/icons-react';
import type { Permission } from '../../../shared/contract/index.ts';
import { MessageState } from './message-state.tsx';

export interface NoPermissionStateProps {
  feature: string;
  permission: Permission;
  userName: string;
  /** The entity the permission is on; Security unless said. */
  entity?: string;
}

export function NoPermissionState({ feature, permission, userName, entity = 'Security' }: NoPermissionStateProps) {
  return (
    <MessageState
      color="yellow"
      icon={<IconLock />}
      title={`You cannot view ${feature.toLowerCase()}`}
      description={`Viewing ${feature.toLowerCase()} requires the ${permission} permission on ${entity}, which ${userName} does not have. Ask an administrator to grant it. You can still submit two-factor tokens for your own instructions.`}
    />
  );
}
