import { Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuthorizationRequest } from '../../../../../shared/contract/index.ts';
import { requestsChanged } from '../../../../api/live/cache-updates.ts';
import { decideRequest } from '../../../../api/queries/mutations.ts';
import type { Decision } from '../../../../entities/request/decision.ts';
import { BulkDialog } from '../../../../ui/lists/bulk/bulk-dialog.tsx';

export function BulkDecisionDialog({
  requests,
  decision,
  onClose,
  onFinished,
}: {
  requests: AuthorizationRequest[];
  decision: Decision;
  onClose: () => void;
  onFinished: () => void;
}) {
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const approve = decision === 'approve';
  const byId = new Map(requests.map((request) => [request.Id, request]));
  const count = `${requests.length} ${requests.length === 1 ? 'request' : 'requests'}`;
  return (
    <BulkDialog
      title={approve ? `Approve ${count}?` : `Reject ${count}?`}
      confirmLabel={approve ? `Approve ${count}` : `Reject ${count}`}
      confirmColor={approve ? undefined : 'red.9'}
      items={requests.map((request) => ({
        id: request.Id,
        label: `#${request.Id} ${request.UserName} · ${request.Manufacturer} ${request.Model}`,
      }))}
      runOne={(id) => {
        const request = byId.get(id);
        if (!request) return Promise.reject(new Error('unknown request'));
        return decideRequest.mutationFn({
          RequestId: request.Id,
          RequestGuid: request.RequestGuid,
          Authorized: approve,
          Comment: comment.trim() === '' ? undefined : comment.trim(),
        });
      }}
      onClose={onClose}
      onFinished={() => {
        void requestsChanged(queryClient);
        onFinished();
      }}
    >
      <Textarea
        label="Comment"
        description="Optional; recorded with every decision."
        autosize
        minRows={2}
        maxLength={2000}
        value={comment}
        onChange={(event) => setComment(event.currentTarget.value)}
        data-autofocus
      />
    </BulkDialog>
  );
}
