import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AuthorizationRequest,
  DeviceAuthorizationDecision,
  PushMessageUser,
  PushMessageUserUpdate,
} from '../../shared/contract/index.ts';
import { isApiError } from './api-error.ts';
import type { TokenSubmission } from './consumer-api.ts';
import { api } from './instance.ts';
import { authorizationRequestQueries, pushUserQueries } from './queries.ts';

export function useDecideRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: DeviceAuthorizationDecision) => api.authorizeDevice(decision),
    onSuccess: (decided) => {
      queryClient.setQueryData(authorizationRequestQueries.detail(decided.Id).queryKey, decided);
      // The row leaves the pending view at once; the refetch below confirms it.
      queryClient.setQueryData(
        authorizationRequestQueries.list({ view: 'pending' }).queryKey,
        (old: AuthorizationRequest[] | undefined) => old?.filter((request) => request.Id !== decided.Id),
      );
      queryClient.setQueryData(
        authorizationRequestQueries.list({ view: 'all' }).queryKey,
        (old: AuthorizationRequest[] | undefined) =>
          old?.map((request) => (request.Id === decided.Id ? decided : request)),
      );
      return queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.all });
    },
    onError: (error) => {
      // Someone else decided first (or the request went away): show the queue as it now is.
      if (isApiError(error) && (error.kind === 'already-decided' || error.kind === 'not-found')) {
        return queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.all });
      }
    },
  });
}

export function useUpdatePushUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: PushMessageUserUpdate) => api.updatePushUser(update),
    onSuccess: (updated) => {
      queryClient.setQueryData(pushUserQueries.detail(updated.Id).queryKey, updated);
      queryClient.setQueryData(pushUserQueries.list().queryKey, (old: PushMessageUser[] | undefined) =>
        old?.map((user) => (user.Id === updated.Id ? updated : user)),
      );
      return queryClient.invalidateQueries({ queryKey: pushUserQueries.all });
    },
  });
}

export function useSubmitToken() {
  return useMutation({ mutationFn: (submission: TokenSubmission) => api.submitToken(submission) });
}
