import { Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { describeError } from '../../api/core/describe-error.ts';
import { MessageState } from './message-state.tsx';

export interface ErrorStateProps {
  error: unknown;
  onRetry?: () => void;
}

export function ErrorState({ error, onRetry }: ErrorStateProps) {
  const { title, message } = describeError(error);
  return (
    <div role="alert">
      <MessageState color="red" icon={<IconAlertTriangle />} title={title} description={message}>
        {onRetry && (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRetry}>
            Try again
          </Button>
        )}
      </MessageState>
    </div>
  );
}
