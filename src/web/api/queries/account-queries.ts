import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type Account,
  type AccountCreation,
  type AccountPermissions,
  type Endpoint,
  endpoints,
  type ResponseOf,
} from '../../../shared/contract/index.ts';
import { type CallInput, endpointMutation, endpointQuery } from './endpoint-query.ts';

const accountKeys = { all: ['accounts'] as const };

export const accountQueries = {
  ...accountKeys,
  list: endpointQuery(endpoints.listAccounts, () => ({
    queryKey: [...accountKeys.all, 'list'] as const,
    // Last sign-in and open sessions change without anything done here.
    options: { staleTime: 0 },
  })),
  /** Under the accounts key, so any change to an account refreshes its activity too. */
  history: endpointQuery(endpoints.accountHistory, (id: number) => ({
    queryKey: [...accountKeys.all, 'history', id] as const,
    call: { params: { id } },
    // Activity is what an administrator opens the drawer to see: always ask again when it opens.
    options: { staleTime: 0 },
  })),
  /** Codes people reported from their devices as not asked for by them (the overview shows them). */
  reportedCodes: endpointQuery(endpoints.reportedCodes, () => ({
    queryKey: [...accountKeys.all, 'reported-codes'] as const,
    options: { staleTime: 0 },
  })),
};

/** An endpoint that answers the changed account. */
type AccountChange = Endpoint & { response: NonNullable<Endpoint['response']> };

/** One account changed: put it in the list at once, then refresh list and activity from the server. */
function useAccountChange<E extends AccountChange, V>(endpoint: E, toCall: (variables: V) => CallInput<E>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoint, toCall),
    onSuccess: (answer: ResponseOf<E>) => {
      // An API account's secret is for the dialog that shows it once, never for the cached list.
      const { Secret: _secret, ...account } = answer as Account & { Secret?: string };
      queryClient.setQueryData(accountQueries.list().queryKey, (old: Account[] | undefined) =>
        old?.some((item) => item.Id === account.Id)
          ? old.map((item) => (item.Id === account.Id ? account : item))
          : [...(old ?? []), account],
      );
      return queryClient.invalidateQueries({ queryKey: accountQueries.all });
    },
  });
}

export const useCreateAccount = () =>
  useAccountChange(endpoints.createAccount, (input: AccountCreation) => ({ body: input }));
export const useUpdateAccountPermissions = () =>
  useAccountChange(
    endpoints.updateAccountPermissions,
    ({ id, permissions }: { id: number; permissions: AccountPermissions }) => ({
      params: { id },
      body: { Permissions: permissions },
    }),
  );
export const useUpdateAccountEnabled = () =>
  useAccountChange(endpoints.updateAccountEnabled, ({ id, enabled }: { id: number; enabled: boolean }) => ({
    params: { id },
    body: { Enabled: enabled },
  }));
export const useResetAccountPassword = () =>
  useAccountChange(endpoints.resetAccountPassword, ({ id, password }: { id: number; password: string }) => ({
    params: { id },
    body: { Password: password },
  }));
export const useUpdateAccountEmail = () =>
  useAccountChange(endpoints.updateAccountEmail, ({ id, email }: { id: number; email: string | null }) => ({
    params: { id },
    body: { Email: email },
  }));
export const useSignOutAccount = () => useAccountChange(endpoints.signOutAccount, (id: number) => ({ params: { id } }));
/** Answers the API account with its new secret (shown once); the list keeps the account without it. */
export const useRotateAccountSecret = () =>
  useAccountChange(endpoints.rotateAccountSecret, (id: number) => ({ params: { id } }));

export function useChangeOwnPassword() {
  return useMutation(
    endpointMutation(
      endpoints.changeOwnPassword,
      ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) => ({
        body: { OldPassword: oldPassword, NewPassword: newPassword },
      }),
    ),
  );
}

export function useSignOutEverywhere() {
  return useMutation(endpointMutation(endpoints.signOutOwnSessions, () => ({})));
}
