import { z } from 'zod/mini';
import { ACTIVITY_TARGET_PATTERN, deferred } from '../../../shared/contract/index.ts';

const text = (max: number) =>
  z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(max))), undefined);
const day = () => z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);

/**
 * The Activity page's URL: the filters a security officer bookmarks and shares. Bad values fall back to no filter
 * rather than fail (the server checks what it is sent again).
 */
export const ActivitySearch = deferred(() =>
  z.object({
    actor: text(256),
    person: text(256),
    target: z.catch(z.optional(z.string().check(z.regex(ACTIVITY_TARGET_PATTERN))), undefined),
    action: z.catch(z.optional(z.string().check(z.regex(/^[a-z-]{1,40}$/))), undefined),
    outcome: z.catch(z.optional(z.enum(['success', 'failure'])), undefined),
    from: day(),
    to: day(),
    q: text(200),
  }),
);
export type ActivitySearch = z.infer<typeof ActivitySearch>;

/** Every filter unset, as a change to the address: "Clear filters" and the empty state's "Show every event". */
export const NO_FILTERS: { [Key in keyof Required<ActivitySearch>]: undefined } = {
  actor: undefined,
  person: undefined,
  target: undefined,
  action: undefined,
  outcome: undefined,
  from: undefined,
  to: undefined,
  q: undefined,
};

/** Whether any filter is set (the empty state offers to clear them). */
export const anyFilter = (search: ActivitySearch) => Object.values(search).some((value) => value !== undefined);
