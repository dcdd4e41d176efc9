import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DemoAuthorizationRequestInput } from '../../../shared/contract/index.ts';
import { requestsChanged } from '../../api/cache-updates.ts';
import { api } from '../../api/instance.ts';
import { demoQueries } from '../../api/queries.ts';
import { systemQueries } from '../../api/system-queries.ts';

export function useDemoDeviceRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DemoAuthorizationRequestInput) => api.demoCreateAuthorizationRequest(input),
    onSuccess: () => requestsChanged(queryClient),
  });
}

export function useDemoInstruction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduled: boolean) => api.demoCreateInstruction(scheduled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: demoQueries.all }),
  });
}

export function useDemoReissueToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instructionId: number) => api.demoReissueToken(instructionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: demoQueries.all }),
  });
}

export function useDemoReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.demoReset(),
    // Everything but what the server says about itself may have changed.
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== systemQueries.all[0] }),
  });
}
