import { z } from 'zod/mini';
import { deferred } from '../../../../shared/contract/index.ts';
import type { StatusFilterWord } from '../../../entities/push-user/push-user-status.ts';

// The words of components/push-user-status.ts; a literal tuple, because z.enum needs one.
export const STATUS_FILTERS = ['all', 'active', 'disabled', 'deleted'] as const satisfies readonly (
  | 'all'
  | StatusFilterWord
)[];
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const PushUserSearch = deferred(() =>
  z.object({
    status: z.catch(z._default(z.enum(STATUS_FILTERS), 'all'), 'all'),
    q: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
  }),
);
export type PushUserSearch = z.infer<typeof PushUserSearch>;

export const PUSH_USER_SEARCH_DEFAULTS = { status: 'all' } as const;
