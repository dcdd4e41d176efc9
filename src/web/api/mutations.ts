import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceAuthorizationDecision, PushMessageUserUpdate } from '../../shared/contract/index.ts';
import { isApiError } from './api-error.ts';
import { pushUsersChanged, requestsChanged } from './cache-updates.ts';
import type { TokenSubmission } from './consumer-api.ts';
import { api } from './instance.ts';

export function useDecideRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: DeviceAuthorizationDecision) => api.authorizeDevice(decision),
    onSuccess: (decided) => requestsChanged(queryClient, [decided]),
    onError: (error) => {
      // Someone else decided first (or the request went away): show the queue as it now is.
      if (isApiError(error) && (error.kind === 'already-decided' || error.kind === 'not-found')) {
        return requestsChanged(queryClient);
      }
    },
  });
}

export function useUpdatePushUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: PushMessageUserUpdate) => api.updatePushUser(update),
    onSuccess: (updated) => pushUsersChanged(queryClient, [updated]),
  });
}

export function useSubmitToken() {
  return useMutation({ mutationFn: (submission: TokenSubmission) => api.submitToken(submission) });
}
