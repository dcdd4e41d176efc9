import { queryOptions } from '@tanstack/react-query';
import { endpoints, REQUEST_CONTEXT_BATCH_MAX, type RequestContext } from '../../../shared/contract/index.ts';
import { api } from '../instance.ts';
import { callEndpoint } from './endpoint-query.ts';

interface Waiter {
  resolve: (context: RequestContext) => void;
  reject: (error: unknown) => void;
}

const waiting = new Map<number, Waiter[]>();
let scheduled = false;

/**
 * The contexts every row asked for in one turn, in one call per hundred: a queue's rows ask one by one as they render
 * (only the rows in view render), and the service answers a page of them in one batched read.
 */
async function flush(): Promise<void> {
  scheduled = false;
  const batch = [...waiting];
  waiting.clear();
  for (let start = 0; start < batch.length; start += REQUEST_CONTEXT_BATCH_MAX) {
    const chunk = batch.slice(start, start + REQUEST_CONTEXT_BATCH_MAX);
    try {
      const contexts = await callEndpoint(api, endpoints.authorizationRequestContexts, {
        query: { ids: chunk.map(([id]) => id).join(',') },
      });
      const byId = new Map(contexts.map((context) => [context.AuthorizationRequestId, context]));
      for (const [id, waiters] of chunk) {
        const context = byId.get(id);
        for (const waiter of waiters) {
          if (context) waiter.resolve(context);
          else waiter.reject(new Error(`No context for request ${id}`));
        }
      }
    } catch (error) {
      for (const [, waiters] of chunk) for (const waiter of waiters) waiter.reject(error);
    }
  }
}

function loadContext(id: number): Promise<RequestContext> {
  return new Promise((resolve, reject) => {
    waiting.set(id, [...(waiting.get(id) ?? []), { resolve, reject }]);
    if (!scheduled) {
      scheduled = true;
      setTimeout(() => void flush(), 0);
    }
  });
}

const contextKeys = { all: ['request-context'] as const };

/** A request's decision context (how it came, the person's other devices, hints), batched with its neighbours'. */
export const requestContextQueries = {
  ...contextKeys,
  endpoint: endpoints.authorizationRequestContexts,
  one: Object.assign(
    (id: number) =>
      Object.assign(
        queryOptions({
          queryKey: [...contextKeys.all, id] as const,
          queryFn: () => loadContext(id),
          staleTime: 30_000,
          retry: 1,
        }),
        { endpoint: endpoints.authorizationRequestContexts },
      ),
    { endpoint: endpoints.authorizationRequestContexts },
  ),
};
