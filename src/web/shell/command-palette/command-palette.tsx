import '@mantine/spotlight/styles.css';
import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import {
  IconDeviceMobile,
  IconFileText,
  IconLogout,
  IconMoon,
  IconSearch,
  IconSun,
  IconUser,
  IconUserPlus,
  IconUserShield,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { endpoints } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { peopleQueries } from '../../api/queries/people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries/queries.ts';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { notify } from '../../lib/notify.ts';
import { useKeepFocus } from '../../lib/use-keep-focus.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { signOutNotice } from '../../session/sign-out-notice.ts';
import { listedPages } from '../../wiring/pages.tsx';

const [store, palette] = createSpotlight();
const isOpen = () => store.getState().opened;

const LIMIT = 8;

/** A person's page, when this build has one (it is added beside this palette, not by it): absent, none is offered. */
const PERSON_ROUTE = '/people/$userName';

/**
 * Ctrl/⌘+K or the header's Find button: find a person (their page comes first), jump to a page, a request (by id or
 * user name), a push user or an account (by name), or act: switch the theme, sign out, create an account. Loaded on
 * the first ask. Each list is searched only for people who may
 * read it, and asked for only once the palette opens.
 */
export function CommandPalette({ opens }: { opens: number }) {
  const navigate = useNavigate();
  const router = useRouter();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState(false);
  // Push users are searched by name: the list the push users page uses (from the cache when it is there).
  // Only for people who may read them: without Security Read the palette neither lists nor asks for them.
  const { session, signOut } = useSession();
  const { demo } = useDemoMode();
  const mayReadUsers = endpointAccess(session, pushUserQueries.list.endpoint).allowed;
  const mayReadRequests = endpointAccess(session, authorizationRequestQueries.list.endpoint).allowed;
  const mayReadAccounts = endpointAccess(session, accountQueries.list.endpoint).allowed;
  const mayCreateAccount = endpointAccess(session, endpoints.createAccount).allowed;
  const users = useQuery({ ...pushUserQueries.list(), enabled: opened && mayReadUsers });
  const allRequests = useQuery({
    ...authorizationRequestQueries.list({ view: 'all' }),
    enabled: opened && mayReadRequests,
  });
  const accounts = useQuery({ ...accountQueries.list(), enabled: opened && mayReadAccounts });
  const hasPersonPage = PERSON_ROUTE in router.routesByPath;
  // Everyone the service knows, for people who may open their pages: a person is what the helpdesk looks for.
  const mayReadPeople = hasPersonPage && endpointAccess(session, peopleQueries.list.endpoint).allowed;
  const everyone = useQuery({ ...peopleQueries.list(), enabled: opened && mayReadPeople });

  // Typing goes to the palette while it is open, even when a dialog under it (an account's drawer) arrives late.
  const search = useRef<HTMLInputElement>(null);
  useKeepFocus(search, isOpen);

  // Each ask (the first Ctrl/⌘+K, the header's Find button) opens it.
  useEffect(() => {
    if (opens > 0) palette.open();
  }, [opens]);

  const text = query.trim().toLowerCase();
  const requests = useMemo(() => {
    if (!text || !mayReadRequests) return [];
    return (allRequests.data ?? [])
      .filter((request) => String(request.Id) === text || request.UserName.toLowerCase().includes(text))
      .slice(0, LIMIT);
  }, [allRequests.data, text, mayReadRequests]);
  const matchingUsers = useMemo(
    () =>
      text.length < 2 || !mayReadUsers
        ? []
        : (users.data ?? []).filter((user) => user.UserName.toLowerCase().includes(text)).slice(0, LIMIT),
    [users.data, text, mayReadUsers],
  );
  const matchingAccounts = useMemo(
    () =>
      text.length < 2 || !mayReadAccounts
        ? []
        : (accounts.data ?? []).filter((account) => account.UserName.toLowerCase().includes(text)).slice(0, LIMIT),
    [accounts.data, text, mayReadAccounts],
  );
  // The person pages first: everyone matching by name, then the people the other matches belong to, once each.
  const people = useMemo(() => {
    if (!hasPersonPage || text.length < 2) return [];
    const named = mayReadPeople
      ? (everyone.data ?? []).map((person) => person.UserName).filter((name) => name.toLowerCase().includes(text))
      : [];
    const seen = new Set<string>();
    return [...named, ...[...matchingAccounts, ...matchingUsers, ...requests].map((item) => item.UserName)]
      .filter((name) => {
        const key = name.toLowerCase();
        if (!name || seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, LIMIT);
  }, [hasPersonPage, text, mayReadPeople, everyone.data, matchingAccounts, matchingUsers, requests]);
  const nextScheme = scheme === 'dark' ? 'light' : 'dark';
  const actions = [
    {
      key: 'theme',
      label: `Switch to ${nextScheme} theme`,
      icon: nextScheme === 'dark' ? <IconMoon size={18} /> : <IconSun size={18} />,
      run: () => setColorScheme(nextScheme),
    },
    ...(mayCreateAccount
      ? [
          {
            key: 'create-account',
            label: 'Create an account',
            icon: <IconUserPlus size={18} />,
            run: () => void navigate({ to: '/accounts', search: { create: true } }),
          },
        ]
      : []),
    {
      key: 'sign-out',
      label: 'Sign out',
      icon: <IconLogout size={18} />,
      run: async () => {
        notify(signOutNotice(await signOut()));
        await navigate({ to: '/login' });
      },
    },
  ].filter((action) => !text || action.label.toLowerCase().includes(text));
  const pages = listedPages(session, demo).filter((page) => !text || page.label.toLowerCase().includes(text));
  const requestId = /^#?\d{1,9}$/.test(text) ? Number(text.replace('#', '')) : null;

  const go = (to: string) => void navigate({ to });
  // A person's page comes first, unless what was typed begins a page's name ("accounts" means the page).
  const pagesFirst = text !== '' && pages.some((page) => page.label.toLowerCase().startsWith(text));
  const peopleGroup = people.length > 0 && (
    <Spotlight.ActionsGroup label="People">
      {people.map((userName) => (
        <Spotlight.Action
          key={userName}
          label={userName}
          description="Their page: devices, requests, codes and reports"
          leftSection={<IconUser size={18} />}
          onClick={() => void router.navigate({ href: `/people/${encodeURIComponent(userName)}` })}
        />
      ))}
    </Spotlight.ActionsGroup>
  );
  const empty =
    pages.length === 0 &&
    actions.length === 0 &&
    requestId === null &&
    requests.length === 0 &&
    matchingUsers.length === 0 &&
    matchingAccounts.length === 0 &&
    people.length === 0;

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={setQuery}
      onSpotlightOpen={() => setOpened(true)}
      onSpotlightClose={() => setQuery('')}
      shortcut={['mod + K']}
      scrollable
      maxHeight={420}
      attributes={{ content: { 'aria-label': 'Command palette' } }}
    >
      <Spotlight.Search
        ref={search}
        aria-label="Command palette"
        placeholder={
          mayReadPeople
            ? 'Find a person, or go to a page, request or account…'
            : 'Go to a page, request, push user or account, or act…'
        }
        leftSection={<IconSearch size={18} />}
      />
      <Spotlight.ActionsList>
        {!pagesFirst && peopleGroup}
        {pages.length > 0 && (
          <Spotlight.ActionsGroup label="Pages">
            {pages.map((page) => (
              <Spotlight.Action
                key={page.to}
                label={page.label}
                leftSection={<IconFileText size={18} />}
                onClick={() => go(page.to)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {pagesFirst && peopleGroup}
        {(requestId !== null || requests.length > 0) && (
          <Spotlight.ActionsGroup label="Authorization requests">
            {requestId !== null && !requests.some((request) => request.Id === requestId) && (
              <Spotlight.Action
                label={`Open request #${requestId}`}
                leftSection={<IconDeviceMobile size={18} />}
                onClick={() => go(`/authorization-requests/${requestId}`)}
              />
            )}
            {requests.map((request) => (
              <Spotlight.Action
                key={request.Id}
                label={`Request #${request.Id} · ${request.UserName}`}
                description={`${request.Manufacturer} ${request.Model}${request.Status ? ` · ${request.Status}` : ''}`}
                leftSection={<IconDeviceMobile size={18} />}
                onClick={() => go(`/authorization-requests/${request.Id}`)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {matchingUsers.length > 0 && (
          <Spotlight.ActionsGroup label="Push users">
            {matchingUsers.map((user) => (
              <Spotlight.Action
                key={user.Id}
                label={user.UserName}
                description={`#${user.Id} · ${user.DeviceType}`}
                leftSection={<IconUser size={18} />}
                onClick={() => go(`/push-users/${user.Id}`)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {matchingAccounts.length > 0 && (
          <Spotlight.ActionsGroup label="Accounts">
            {matchingAccounts.map((account) => (
              <Spotlight.Action
                key={account.Id}
                label={account.UserName}
                description={`${account.Source} account${account.Enabled ? '' : ' · disabled'}`}
                leftSection={<IconUserShield size={18} />}
                onClick={() => void navigate({ to: '/accounts', search: { account: account.Id } })}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {actions.length > 0 && (
          <Spotlight.ActionsGroup label="Actions">
            {actions.map((action) => (
              <Spotlight.Action
                key={action.key}
                label={action.label}
                leftSection={action.icon}
                onClick={() => void action.run()}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {empty && <Spotlight.Empty>Nothing found</Spotlight.Empty>}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
