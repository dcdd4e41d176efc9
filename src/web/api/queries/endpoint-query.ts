import {
  type DataTag,
  type QueryKey,
  queryOptions,
  type UndefinedInitialDataOptions,
  type UseQueryOptions,
} from '@tanstack/react-query';
import type { Endpoint, ResponseOf } from '../../../shared/contract/index.ts';
import type { ApiClient, CallArguments, CallOptions } from '../core/client.ts';
import { api } from '../instance.ts';

/** What a query sends: the endpoint's body, path parameters and query, typed by its catalogue entry (no signal). */
export type CallInput<E extends Endpoint> = Omit<CallOptions<E>, 'signal' | 'byPerson'>;

/** The rest of a query's options (refetching, retries, freshness), whatever the endpoint answers. */
export type QueryExtras<E extends Endpoint, K extends QueryKey> = Omit<
  UseQueryOptions<ResponseOf<E>, Error, ResponseOf<E>, K>,
  'queryKey' | 'queryFn'
>;

/**
 * For a query its route's loader asks for on every visit (a detail page's): the page does not ask again on mount when
 * the loader's answer was an error. It is the same answer a moment later, and for an unknown name or id (404) it
 * was a second request for every visit.
 */
export const ASKED_BY_LOADER = { retryOnMount: false } as const;

/** One query as a page, its route's loader and its permission gate read it: the options and the catalogue entry. */
export type EndpointQueryOptions<E extends Endpoint, K extends QueryKey> = UndefinedInitialDataOptions<
  ResponseOf<E>,
  Error,
  ResponseOf<E>,
  K
> & { queryKey: DataTag<K, ResponseOf<E>, Error>; endpoint: E };

/** What a query factory says per call: its cache key, what it sends, and any options of its own. */
export interface QueryDescription<E extends Endpoint, K extends QueryKey> {
  queryKey: K;
  call?: CallInput<E>;
  options?: QueryExtras<E, K>;
}

/** Anything that carries its catalogue entry: a query factory, its options, a mutation. */
export interface HasEndpoint {
  endpoint: Endpoint;
}

/** Calls an endpoint with a query's input and signal (the client's signature checks the input per endpoint). */
export function callEndpoint<E extends Endpoint>(
  client: ApiClient,
  endpoint: E,
  input: CallInput<E> | undefined,
  signal?: AbortSignal,
): Promise<ResponseOf<E>> {
  const args = [{ ...input, signal }] as unknown as CallArguments<E>;
  return client.call(endpoint, ...args);
}

/**
 * A query factory named once by its catalogue entry: the query calls that endpoint through the one client (no wrapper
 * per endpoint), and the factory and every options object it makes carry the entry, so a route's loader checks the
 * permission (`prefetchIfAllowed`) and a page's gate (`EndpointGate`) reads it from the query itself.
 */
export function endpointQuery<E extends Endpoint, A extends unknown[], K extends QueryKey>(
  endpoint: E,
  describe: (...args: A) => QueryDescription<E, K>,
  client: ApiClient = api,
): ((...args: A) => EndpointQueryOptions<E, K>) & HasEndpoint {
  const factory = (...args: A): EndpointQueryOptions<E, K> => {
    const { queryKey, call, options } = describe(...args);
    const built = queryOptions<ResponseOf<E>, Error, ResponseOf<E>, K>({
      ...options,
      queryKey,
      queryFn: ({ signal }) => callEndpoint(client, endpoint, call, signal),
    } as UndefinedInitialDataOptions<ResponseOf<E>, Error, ResponseOf<E>, K>);
    return Object.assign(built, { endpoint });
  };
  return Object.assign(factory, { endpoint });
}

/**
 * A mutation's function named by its catalogue entry: `toCall` turns the mutation's variables into what the endpoint
 * takes. Spread into `useMutation`; the entry comes along for a permission button (`endpoint={mutation.endpoint}`).
 */
export function endpointMutation<E extends Endpoint, V = void>(
  endpoint: E,
  toCall: (variables: V) => CallInput<E>,
  client: ApiClient = api,
): { endpoint: E; mutationFn: (variables: V) => Promise<ResponseOf<E>> } {
  return { endpoint, mutationFn: (variables: V) => callEndpoint(client, endpoint, toCall(variables)) };
}
