import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DemoAuthorizationRequestInput, endpoints } from '../../../shared/contract/index.ts';
import { requestsChanged } from '../../api/live/cache-updates.ts';
import { endpointMutation } from '../../api/queries/endpoint-query.ts';
import { demoQueries } from '../../api/queries/queries.ts';
import { systemQueries } from '../../api/queries/system-queries.ts';

export function useDemoDeviceRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.demoCreateAuthorizationRequest, (input: DemoAuthorizationRequestInput) => ({
      body: input,
    })),
    onSuccess: () => requestsChanged(queryClient),
  });
}

export function useDemoInstruction() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.demoCreateInstruction, (scheduled: boolean) => ({ body: { Scheduled: scheduled } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: demoQueries.all }),
  });
}

export function useDemoReissueToken() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.demoReissueToken, (instructionId: number) => ({ params: { id: instructionId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: demoQueries.all }),
  });
}

export function useDemoReset() {
  const queryClient = useQueryClient();
  return useMutation({
    ...endpointMutation(endpoints.demoReset, () => ({})),
    // Everything but what the server says about itself may have changed. Not awaited: the reset is done when the server
    // says so, and its confirmation waited on every query of the page being asked again (the inbox's poll, the live
    // queue's), so on a busy machine it came seconds after the reset, later than a person (or a test) looks for it.
    onSuccess: () => {
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== systemQueries.all[0] });
    },
  });
}
