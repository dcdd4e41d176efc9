import { z } from 'zod';

export const STATUS_FILTERS = ['all', 'active', 'disabled', 'deleted'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const PushUserSearch = z.object({
  status: z.enum(STATUS_FILTERS).default('all').catch('all'),
  q: z.string().max(200).optional().catch(undefined),
});
export type PushUserSearch = z.infer<typeof PushUserSearch>;

export const PUSH_USER_SEARCH_DEFAULTS = { status: 'all' } as const;
