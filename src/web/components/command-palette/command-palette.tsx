import '@mantine/spotlight/styles.css';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import { IconDeviceMobile, IconFileText, IconSearch, IconUser } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries.ts';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { listedPages } from '../../wiring/pages.tsx';

const [store, palette] = createSpotlight();

const LIMIT = 8;

/** Ctrl/⌘+K: jump to a page, a request by id or a push user by name. Loaded on the first Ctrl/⌘+K. */
export function CommandPalette({ openNow }: { openNow: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState(false);
  // Push users are searched by name: the list the push users page uses (from the cache when it is there).
  // Only for people who may read them: without Security Read the palette neither lists nor asks for them.
  const { session } = useSession();
  const { demo } = useDemoMode();
  const mayReadUsers = endpointAccess(session, pushUserQueries.list.endpoint).allowed;
  const users = useQuery({ ...pushUserQueries.list(), enabled: opened && mayReadUsers });

  useEffect(() => {
    if (openNow) palette.open();
  }, [openNow]);

  const text = query.trim().toLowerCase();
  const requests = useMemo(() => {
    const cached =
      queryClient.getQueryData<AuthorizationRequest[]>(authorizationRequestQueries.list({ view: 'all' }).queryKey) ??
      queryClient.getQueryData<AuthorizationRequest[]>(
        authorizationRequestQueries.list({ view: 'pending' }).queryKey,
      ) ??
      [];
    if (!text) return [];
    return cached
      .filter((request) => String(request.Id) === text || request.UserName.toLowerCase().includes(text))
      .slice(0, LIMIT);
  }, [queryClient, text]);
  const matchingUsers = useMemo(
    () =>
      text.length < 2 || !mayReadUsers
        ? []
        : (users.data ?? []).filter((user) => user.UserName.toLowerCase().includes(text)).slice(0, LIMIT),
    [users.data, text, mayReadUsers],
  );
  const pages = listedPages(session, demo).filter((page) => !text || page.label.toLowerCase().includes(text));
  const requestId = /^#?\d{1,9}$/.test(text) ? Number(text.replace('#', '')) : null;

  const go = (to: string) => void navigate({ to });
  const empty = pages.length === 0 && requestId === null && requests.length === 0 && matchingUsers.length === 0;

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
        aria-label="Command palette"
        placeholder="Go to a page, request #id or push user name…"
        leftSection={<IconSearch size={18} />}
      />
      <Spotlight.ActionsList>
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
        {empty && <Spotlight.Empty>Nothing found</Spotlight.Empty>}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
