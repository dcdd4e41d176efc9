import { IconVersionsOff } from '@tabler/icons-react';
import type { ApiVersion } from '../../../shared/contract/index.ts';
import { RouterButton } from '../router-links.tsx';
import { MessageState } from './message-state.tsx';

export interface UnavailableStateProps {
  feature: string;
  /** From the contract, e.g. "removed in API 4.0". */
  reason: string;
  version: ApiVersion;
}

/** Shown instead of calling an endpoint the selected API version does not have. */
export function UnavailableState({ feature, reason, version }: UnavailableStateProps) {
  return (
    <MessageState
      color="orange"
      icon={<IconVersionsOff />}
      title={`${feature}: ${reason}`}
      description={`This part of the Consumer API was ${reason}. You are using API ${version}, so the dashboard does not call it. Choose another API version in Settings to use it.`}
    >
      <RouterButton to="/settings" variant="default">
        Open settings
      </RouterButton>
    </MessageState>
  );
}
