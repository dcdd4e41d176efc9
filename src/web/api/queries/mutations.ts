import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type DeviceAuthorizationDecision,
  endpoints,
  type InstructionInput,
  type InstructionKind,
  type PushMessageUser,
  type PushMessageUserUpdate,
  type TokenAccepted,
  tokenEndpointFor,
} from '../../../shared/contract/index.ts';
import { isApiError } from '../core/api-error.ts';
import { api } from '../instance.ts';
import { pushUsersChanged, requestsChanged } from '../live/cache-updates.ts';
import { endpointMutation } from './endpoint-query.ts';

/** Approve or reject one request (the queue's dialogs, one by one in a bulk decision). */
export const decideRequest = endpointMutation(endpoints.authorizeDevice, (decision: DeviceAuthorizationDecision) => ({
  body: decision,
}));

/** Set one push user's status (the row menu, the detail page, one by one in a bulk change). */
export const updatePushUser = endpointMutation(endpoints.updatePushMessageUser, (update: PushMessageUserUpdate) => ({
  body: update,
}));

export function useDecideRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    ...decideRequest,
    onSuccess: (decided) => requestsChanged(queryClient, [decided]),
    onError: (error) => {
      // Someone else decided first (or the request went away): show the queue as it now is.
      if (isApiError(error) && (error.kind === 'already-decided' || error.kind === 'not-found')) {
        return requestsChanged(queryClient);
      }
    },
  });
}

/** Every push user status change, so a row can tell whether one of its own is under way wherever it started. */
const PUSH_USER_UPDATE_KEY = ['push-users', 'update'] as const;

/**
 * `outcome` is told how the change ended. It belongs to the mutation, not to a `mutate` call: a row of a virtual list
 * that started the change may have scrolled away (unmounted) by the time it ends, and the person is still told.
 */
export function useUpdatePushUser(
  outcome: { onSuccess?: (updated: PushMessageUser) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: PUSH_USER_UPDATE_KEY,
    ...updatePushUser,
    onSuccess: (updated) => {
      outcome.onSuccess?.(updated);
      return pushUsersChanged(queryClient, [updated]);
    },
    onError: outcome.onError,
  });
}

/**
 * Whether a status change of this push user is under way: from the mutation cache, not a component's own mutation,
 * so a row that scrolled out of a virtual list and back in (a new component) still shows it.
 */
export function usePushUserUpdatePending(id: number): boolean {
  return (
    useIsMutating({
      mutationKey: PUSH_USER_UPDATE_KEY,
      predicate: (mutation) => (mutation.state.variables as PushMessageUserUpdate | undefined)?.Id === id,
    }) > 0
  );
}

export interface TokenSubmission {
  kind: InstructionKind;
  id: number;
  token: string;
}

/** Which endpoint takes the token depends on the kind and the version (#2 before 3.1, with its own field name). */
export function submitToken({ kind, id, token }: TokenSubmission, client = api): Promise<TokenAccepted> {
  const endpoint = tokenEndpointFor(kind, client.apiVersion());
  return endpoint === endpoints.submitObsoleteToken
    ? client.call(endpoint, { body: { InstructionId: id, Token: token } })
    : client.call(endpoint, { body: { Id: id, Token: token } });
}

export function useSubmitToken() {
  return useMutation({ mutationFn: (submission: TokenSubmission) => submitToken(submission) });
}

/** A fresh single-use link that enrols a phone as the signed-in person's device. */
export function useCreateEnrollmentLink() {
  return useMutation(endpointMutation(endpoints.createEnrollmentLink, () => ({})));
}

/** An instruction that needs two-factor: a code goes to the person's Active devices. */
export function useCreateInstruction() {
  return useMutation(endpointMutation(endpoints.createInstruction, (input: InstructionInput) => ({ body: input })));
}
