import { z } from 'zod/mini';
import { deferred, type PersonSummary } from '../../../../shared/contract/index.ts';

/** Which people the list shows besides the search. */
export const PEOPLE_VIEWS = ['all', 'reported', 'pending', 'no-device'] as const;
export type PeopleView = (typeof PEOPLE_VIEWS)[number];

export const PEOPLE_SORTS = ['name', 'devices', 'pending', 'sign-in', 'reports'] as const;
export type PeopleSort = (typeof PEOPLE_SORTS)[number];

/** The People page's URL: what the helpdesk bookmarks and shares. Bad values fall back rather than fail. */
export const PeopleSearch = deferred(() =>
  z.object({
    view: z.catch(z._default(z.enum(PEOPLE_VIEWS), 'all'), 'all'),
    q: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
    sort: z.catch(z._default(z.enum(PEOPLE_SORTS), 'name'), 'name'),
  }),
);
export type PeopleSearch = z.infer<typeof PeopleSearch>;

export const PEOPLE_SEARCH_DEFAULTS = { view: 'all', sort: 'name' } as const;

/** A person as the list keeps them: the server's row and a number the virtual list keys it by. */
export type PersonRow = PersonSummary & { key: number };

/** What a people search looks in. */
export const personSearchFields = (person: PersonRow) => [person.UserName];

const KEEPERS: Record<PeopleView, ((person: PersonRow) => boolean) | undefined> = {
  all: undefined,
  reported: (person) => person.OpenReports > 0,
  pending: (person) => person.PendingRequests > 0,
  'no-device': (person) => person.ActiveDevices === 0,
};

/** Which people a view keeps (undefined: everyone). */
export const viewKeeper = (view: PeopleView) => KEEPERS[view];

/** Most first for counts and sign-ins, by name otherwise and to break ties (the server answers by name). */
const COMPARE: Record<PeopleSort, ((a: PersonRow, b: PersonRow) => number) | null> = {
  name: null,
  devices: (a, b) => b.Devices - a.Devices,
  pending: (a, b) => b.PendingRequests - a.PendingRequests,
  // The timestamps' shape sorts as it reads; no sign-in sorts last.
  'sign-in': (a, b) => {
    const x = a.LastSignInUtc ?? '';
    const y = b.LastSignInUtc ?? '';
    return x === y ? 0 : x < y ? 1 : -1;
  },
  reports: (a, b) => b.OpenReports - a.OpenReports,
};

/** The server's list, keyed and in the order asked for (stable: ties keep the name order). */
export function sortPeople(people: readonly PersonSummary[], sort: PeopleSort): PersonRow[] {
  const rows = people.map((person, key) => ({ ...person, key }));
  const compare = COMPARE[sort];
  return compare ? rows.sort((a, b) => compare(a, b) || a.key - b.key) : rows;
}
