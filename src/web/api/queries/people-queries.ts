import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '../../../shared/contract/index.ts';
import { pollUnlessLive } from '../live/live-mode.ts';
import { accountQueries } from './account-queries.ts';
import { ASKED_BY_LOADER, endpointMutation, endpointQuery } from './endpoint-query.ts';
import { PENDING_POLL_MS } from './queries.ts';

/** Under one key: any change to a request, a push user or a report refreshes the people list and every person. */
export const peopleKeys = { all: ['people'] as const };

export const peopleQueries = {
  ...peopleKeys,
  list: endpointQuery(endpoints.listPeople, () => ({
    queryKey: [...peopleKeys.all, 'list'] as const,
    options: { refetchInterval: pollUnlessLive(PENDING_POLL_MS) },
  })),
  /** Keyed by the name in any case: `DEMO\Jane` and `demo\jane` are one person, with one cache entry. */
  detail: endpointQuery(endpoints.getPerson, (userName: string) => ({
    queryKey: [...peopleKeys.all, 'detail', userName.toLowerCase()] as const,
    call: { params: { userName } },
    // Sign-ins and codes change without anything done here.
    options: { ...ASKED_BY_LOADER, staleTime: 0, refetchInterval: pollUnlessLive(PENDING_POLL_MS) },
  })),
};

/** A single-use link that enrols a phone as this person's device (the helpdesk, for someone at their desk). */
export function useCreatePersonEnrollmentLink(userName: string) {
  return useMutation(endpointMutation(endpoints.createPersonEnrollmentLink, () => ({ params: { userName } })));
}

/** Marks a "This wasn't me" report handled by the signed-in person. */
export function useMarkReportHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.markReportHandled, (id: number) => ({ params: { id } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
        queryClient.invalidateQueries({ queryKey: accountQueries.reportedCodes().queryKey }),
      ]),
  });
}

/** Disables every Active device of the person (their lost phone, and any other). */
export function useDisablePersonDevices(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.disablePersonDevices, () => ({ params: { userName } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** A temporary code for the person: the answer carries the code, shown once. */
export function useIssueTemporaryCode(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.issueTemporaryCode, (body: { ValidMinutes: number; Uses: number }) => ({
      params: { userName },
      body,
    })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** Revokes a temporary code: it stops working at once. */
export function useRevokeTemporaryCode() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.revokeTemporaryCode, (id: number) => ({ params: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}
