import { z } from 'zod/mini';
import { deferred } from '../../../../shared/contract/index.ts';

export const REQUEST_SORTS = ['newest', 'oldest', 'user', 'device'] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number];

/** The queue's URL: what people bookmark and share. Bad values fall back rather than fail. */
export const QueueSearch = deferred(() =>
  z.object({
    view: z.catch(z._default(z.enum(['pending', 'all']), 'pending'), 'pending'),
    q: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
    sort: z.catch(z._default(z.enum(REQUEST_SORTS), 'newest'), 'newest'),
  }),
);
export type QueueSearch = z.infer<typeof QueueSearch>;

export const QUEUE_SEARCH_DEFAULTS = { view: 'pending', sort: 'newest' } as const;
