import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AlertDestinationInput, type AlertDestinationUpdate, endpoints } from '../../../shared/contract/index.ts';
import { endpointMutation, endpointQuery } from './endpoint-query.ts';

const alertKeys = { all: ['alerts'] as const };

export const alertQueries = {
  ...alertKeys,
  destinations: endpointQuery(endpoints.listAlertDestinations, () => ({
    queryKey: [...alertKeys.all, 'destinations'] as const,
    // Failing and pending change as the outbox sends, without anything done here.
    options: { staleTime: 0, refetchInterval: 5_000 },
  })),
  deliveries: endpointQuery(endpoints.listAlertDeliveries, (id: number) => ({
    queryKey: [...alertKeys.all, 'deliveries', id] as const,
    call: { params: { id } },
    options: { staleTime: 0, refetchInterval: 5_000 },
  })),
};

/** Every alert mutation refreshes the destinations and their logs. */
function useAlertMutation<V, R>(options: { mutationFn: (variables: V) => Promise<R> }) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export const useCreateAlertDestination = () =>
  useAlertMutation(endpointMutation(endpoints.createAlertDestination, (body: AlertDestinationInput) => ({ body })));
export const useUpdateAlertDestination = () =>
  useAlertMutation(
    endpointMutation(
      endpoints.updateAlertDestination,
      ({ id, body }: { id: number; body: AlertDestinationUpdate }) => ({ params: { id }, body }),
    ),
  );
export const useDeleteAlertDestination = () =>
  useAlertMutation(endpointMutation(endpoints.deleteAlertDestination, (id: number) => ({ params: { id } })));
export const useRotateAlertSecret = () =>
  useAlertMutation(endpointMutation(endpoints.rotateAlertSecret, (id: number) => ({ params: { id } })));
export const useResendAlertDelivery = () =>
  useAlertMutation(endpointMutation(endpoints.resendAlertDelivery, (id: number) => ({ params: { id } })));
