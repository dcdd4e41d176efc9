import {
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
import { accountQueries } from '../api/account-queries.ts';
import type { HasEndpoint } from '../api/endpoint-query.ts';
import { peopleQueries } from '../api/people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../api/queries.ts';
import { endpointAccess } from '../session/permissions.ts';
import type { StoredSession } from '../session/session-store.ts';

export interface Page {
  to: '/' | '/authorization-requests' | '/push-users' | '/people' | '/two-factor' | '/settings' | '/demo' | '/accounts';
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
  /** Listed only to people who may call the endpoint (administration, not everyone's work), or only in demo mode. */
  listedFor?: 'permitted' | 'demo';
}

/** The signed-in pages, in navigation order: the navbar and the command palette list them from here. */
export const PAGES = {
  overview: {
    to: '/',
    label: 'Overview',
    description: 'What waits for a decision and how push users stand. Click a number to see the list.',
    icon: <IconLayoutDashboard size={18} />,
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

/** The pages this person is shown. */
export function listedPages(session: StoredSession | null, demo: boolean): Page[] {
  return Object.values(PAGES).filter((page: Page) => {
    if (page.listedFor === 'demo') return demo;
    if (page.listedFor === 'permitted')
      return page.query ? endpointAccess(session, page.query.endpoint).allowed : false;
    return true;
  });
}
