import {
  IconActivity,
  IconAddressBook,
  IconDeviceMobileCheck,
  IconFlask,
  IconKey,
  IconLayoutDashboard,
  IconSettings,
  IconUserShield,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { accountQueries } from '../api/queries/account-queries.ts';
import { activityQueries } from '../api/queries/activity-queries.ts';
import type { HasEndpoint } from '../api/queries/endpoint-query.ts';
import { peopleQueries } from '../api/queries/people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../api/queries/queries.ts';
import { endpointAccess } from '../session/permissions.ts';
import type { SessionIdentity } from '../session/session-store.ts';

export interface Page {
  to:
    | '/'
    | '/authorization-requests'
    | '/push-users'
    | '/people'
    | '/activity'
    | '/two-factor'
    | '/settings'
    | '/demo'
    | '/accounts';
  label: string;
  /** The line under the page's heading; index.html also shows it while the app's code downloads (page-outlines). */
  description: string;
  icon: ReactNode;
  /**
   * The query the page lists, with its catalogue entry: its route prefetches it only when the person may call the
   * endpoint, the page shows an explanation in place of the list otherwise, and the navigation marks the page n/a in
   * versions without it.
   */
  query?: HasEndpoint;
  /** A page made of several lists (the overview): it opens for anyone who may call one of their endpoints. */
  anyOf?: readonly HasEndpoint[];
  /**
   * Listed only to people who may call the endpoint, or only in demo mode. Every page with a `query` or `anyOf` is
   * listed only to people it opens for; 'permitted' says so of a page where that is the point (administration).
   */
  listedFor?: 'permitted' | 'demo';
}

/** The signed-in pages, in navigation order: the navbar and the command palette list them from here. */
export const PAGES = {
  overview: {
    to: '/',
    label: 'Overview',
    description: 'What waits for a decision and how push users stand. Click a number to see the list.',
    icon: <IconLayoutDashboard size={18} />,
    anyOf: [authorizationRequestQueries.list, pushUserQueries.list, accountQueries.reportedCodes],
  },
  authorizationRequests: {
    to: '/authorization-requests',
    label: 'Authorization requests',
    description: 'Mobile devices asking to be trusted for two-factor authentication.',
    icon: <IconDeviceMobileCheck size={18} />,
    query: authorizationRequestQueries.list,
  },
  pushUsers: {
    to: '/push-users',
    label: 'Push users',
    description: 'Devices registered to receive push messages, such as two-factor tokens.',
    icon: <IconUsers size={18} />,
    query: pushUserQueries.list,
  },
  people: {
    to: '/people',
    label: 'People',
    description: 'Everyone the service knows: their devices, requests, codes and reports in one place.',
    icon: <IconAddressBook size={18} />,
    query: peopleQueries.list,
  },
  activity: {
    to: '/activity',
    label: 'Activity',
    description: 'Security events as they happen: sign-ins, decisions, enrolments, reports and account changes.',
    icon: <IconActivity size={18} />,
    query: activityQueries.page,
  },
  twoFactor: {
    to: '/two-factor',
    label: 'Two-factor tokens',
    description: 'Confirm an instruction you created with the token pushed to your device.',
    icon: <IconKey size={18} />,
  },
  accounts: {
    to: '/accounts',
    label: 'Accounts',
    description: 'Who can sign in to this service, with which permissions, and their sign-in activity.',
    icon: <IconUserShield size={18} />,
    query: accountQueries.list,
    listedFor: 'permitted',
  },
  settings: {
    to: '/settings',
    label: 'Settings',
    description: 'Which server to talk to, and how. Saved in this browser.',
    icon: <IconSettings size={18} />,
  },
  demo: {
    to: '/demo',
    label: 'Demo console',
    description:
      "Play the other actors: a phone asking to be trusted, your own system asking for your second factor, and your phone's inbox.",
    icon: <IconFlask size={18} />,
    listedFor: 'demo',
  },
} as const satisfies Record<string, Page>;

/**
 * Whether the page opens for this person: they may call its endpoint (or one of them). A page missing from their API
 * version still opens (it says which version has it, and the navigation marks it n/a); a forbidden one does not.
 */
export function pageOpensFor(page: Page, session: SessionIdentity | null): boolean {
  const queries = page.anyOf ?? (page.query ? [page.query] : []);
  if (queries.length === 0) return true;
  return queries.some((query) => {
    const access = endpointAccess(session, query.endpoint);
    return access.allowed || access.reason === 'unavailable';
  });
}

/** The pages this person is shown: only those they can open, so no one is offered a locked page. */
export function listedPages(session: SessionIdentity | null, demo: boolean): Page[] {
  return Object.values(PAGES).filter((page: Page) => {
    if (page.listedFor === 'demo' && !demo) return false;
    return pageOpensFor(page, session);
  });
}

/**
 * Where this person lands after signing in (and at `/` when the overview does not open for them): the queue, the
 * day's work, for those it opens for; otherwise the first page they can use (Two-factor tokens, for someone with no
 * Security permission), never a locked one.
 */
export function landingPage(session: SessionIdentity | null, demo: boolean): Page['to'] {
  if (pageOpensFor(PAGES.authorizationRequests, session)) return PAGES.authorizationRequests.to;
  return listedPages(session, demo)[0]?.to ?? PAGES.twoFactor.to;
}
