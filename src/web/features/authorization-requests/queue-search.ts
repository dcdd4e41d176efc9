import { z } from 'zod';

export const REQUEST_SORTS = ['newest', 'oldest', 'user', 'device'] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number];

/** The queue's URL: what people bookmark and share. Bad values fall back rather than fail. */
export const QueueSearch = z.object({
  view: z.enum(['pending', 'all']).default('pending').catch('pending'),
  q: z.string().max(200).optional().catch(undefined),
  sort: z.enum(REQUEST_SORTS).default('newest').catch('newest'),
});
export type QueueSearch = z.infer<typeof QueueSearch>;

export const QUEUE_SEARCH_DEFAULTS = { view: 'pending', sort: 'newest' } as const;
