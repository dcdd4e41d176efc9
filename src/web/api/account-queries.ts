import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account, AccountCreation, AccountPermissions } from '../../shared/contract/index.ts';
import { api } from './instance.ts';

export const accountQueries = {
  all: ['accounts'] as const,
  list: () =>
    queryOptions({
      queryKey: [...accountQueries.all, 'list'] as const,
      queryFn: ({ signal }) => api.listAccounts(signal),
      // Last sign-in and open sessions change without anything done here.
      staleTime: 0,
    }),
  /** Under the accounts key, so any change to an account refreshes its activity too. */
  history: (id: number) =>
    queryOptions({
      queryKey: [...accountQueries.all, 'history', id] as const,
      queryFn: ({ signal }) => api.accountHistory(id, signal),
      // Activity is what an administrator opens the drawer to see: always ask again when it opens.
      staleTime: 0,
    }),
  /** Codes people reported from their devices as not asked for by them (the overview shows them). */
  reportedCodes: () =>
    queryOptions({
      queryKey: [...accountQueries.all, 'reported-codes'] as const,
      queryFn: ({ signal }) => api.reportedCodes(signal),
      staleTime: 0,
    }),
};

/** One account changed: put it in the list at once, then refresh list and activity from the server. */
function useAccountChange<V>(change: (variables: V) => Promise<Account>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (account) => {
      queryClient.setQueryData(accountQueries.list().queryKey, (old: Account[] | undefined) =>
        old?.some((item) => item.Id === account.Id)
          ? old.map((item) => (item.Id === account.Id ? account : item))
          : [...(old ?? []), account],
      );
      return queryClient.invalidateQueries({ queryKey: accountQueries.all });
    },
  });
}

export const useCreateAccount = () => useAccountChange((input: AccountCreation) => api.createAccount(input));
export const useUpdateAccountPermissions = () =>
  useAccountChange(({ id, permissions }: { id: number; permissions: AccountPermissions }) =>
    api.updateAccountPermissions(id, permissions),
  );
export const useUpdateAccountEnabled = () =>
  useAccountChange(({ id, enabled }: { id: number; enabled: boolean }) => api.updateAccountEnabled(id, enabled));
export const useResetAccountPassword = () =>
  useAccountChange(({ id, password }: { id: number; password: string }) => api.resetAccountPassword(id, password));
export const useUpdateAccountEmail = () =>
  useAccountChange(({ id, email }: { id: number; email: string | null }) => api.updateAccountEmail(id, email));
export const useSignOutAccount = () => useAccountChange((id: number) => api.signOutAccount(id));

export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      api.changeOwnPassword(oldPassword, newPassword),
  });
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => api.signOutEverywhere() });
}
