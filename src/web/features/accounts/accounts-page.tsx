import { Alert, Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconApi, IconSearchOff, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { type Account, endpoints } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { ListPage } from '../../ui/lists/list-page.tsx';
import { ListSearchInput } from '../../ui/lists/list-search-input.tsx';
import { ListQueryBody } from '../../ui/lists/stale-list-notice.tsx';
import { useListPage } from '../../ui/lists/use-list-page.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { MessageState } from '../../ui/states/message-state.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { AccountTable } from './account-table.tsx';

const route = getRouteApi('/_app/accounts');

/** What an account search looks in. */
const accountSearchFields = (account: Account) => [account.UserName];
type AccountsSearch = ReturnType<typeof route.useSearch>;

const CreateAccountDialog = lazy(() =>
  import('./create-account-dialog.tsx').then((module) => ({ default: module.CreateAccountDialog })),
);
const ApiAccountDialog = lazy(() =>
  import('./api-account-dialog.tsx').then((module) => ({ default: module.ApiAccountDialog })),
);
const AccountDrawer = lazy(() => import('./account-drawer.tsx').then((module) => ({ default: module.AccountDrawer })));

export function AccountsPage() {
  return (
    <ListPage page={PAGES.accounts}>
      <Accounts />
    </ListPage>
  );
}

function Accounts() {
  const { q, account, create } = route.useSearch();
  const navigate = route.useNavigate();
  const query = useQuery(accountQueries.list());
  const { session } = useSession();
  // The palette's "Create an account" arrives as ?create=true; only someone who may create one gets the dialog.
  const mayCreate = endpointAccess(session, endpoints.createAccount).allowed;
  const [creating, setCreating] = useState<'person' | 'api' | null>(create === true && mayCreate ? 'person' : null);
  // Also when the page is already open (the palette from the Accounts page itself).
  useEffect(() => {
    if (create && mayCreate) setCreating('person');
  }, [create, mayCreate]);
  const { rows, search, onSearchInput } = useListPage<Account, AccountsSearch, never>({
    data: query.data,
    q,
    fields: accountSearchFields,
    navigate,
  });
  const selected = account === undefined ? undefined : query.data?.find((item) => item.Id === account);
  // The same function on every render, so that the memoized rows do not render again when the page does.
  const openAccount = useCallback(
    (id: number) => void navigate({ search: (prev) => ({ ...prev, account: id }) }),
    [navigate],
  );

  return (
    <>
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <ListSearchInput
          label="Search accounts"
          placeholder="Search by user name"
          q={q}
          onSearchInput={onSearchInput}
          onQueryChange={(next) => void navigate({ search: (prev) => ({ ...prev, q: next }), replace: true })}
        />
        <Group gap="xs">
          <PermissionButton
            endpoint={endpoints.createAccount}
            variant="default"
            leftSection={<IconApi size={16} />}
            onClick={() => setCreating('api')}
          >
            Add an API account
          </PermissionButton>
          <PermissionButton
            endpoint={endpoints.createAccount}
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setCreating('person')}
          >
            Create account
          </PermissionButton>
        </Group>
      </Group>
      {account !== undefined && query.isSuccess && !selected && (
        <UnknownAccount
          id={account}
          onDismiss={() => void navigate({ search: (prev) => ({ ...prev, account: undefined }) })}
        />
      )}
      <ListQueryBody query={query} loading="Loading accounts…">
        {rows.length === 0 ? (
          search ? (
            <MessageState icon={<IconSearchOff />} title="No accounts match" description="Try another search.">
              <Button variant="default" onClick={() => void navigate({ search: {} })}>
                Show all accounts
              </Button>
            </MessageState>
          ) : (
            <MessageState icon={<IconUsers />} title="No accounts" description="Create the first local account." />
          )
        ) : (
          <AccountTable accounts={rows} onOpen={openAccount} />
        )}
      </ListQueryBody>
      {creating === 'person' && (
        <Suspense fallback={null}>
          <CreateAccountDialog
            onClose={() => {
              setCreating(null);
              if (create) void navigate({ search: (prev) => ({ ...prev, create: undefined }), replace: true });
            }}
            onCreated={(id) => void navigate({ search: (prev) => ({ ...prev, account: id }) })}
          />
        </Suspense>
      )}
      {creating === 'api' && (
        <Suspense fallback={null}>
          <ApiAccountDialog
            onClose={() => setCreating(null)}
            onCreated={(id) => void navigate({ search: (prev) => ({ ...prev, account: id }) })}
          />
        </Suspense>
      )}
      {selected && (
        <Suspense fallback={null}>
          <AccountDrawer
            account={selected}
            onClose={() => void navigate({ search: (prev) => ({ ...prev, account: undefined }) })}
          />
        </Suspense>
      )}
    </>
  );
}

/** A link to an account that is not (or no longer) there: said, instead of the list alone as if nothing was asked. */
function UnknownAccount({ id, onDismiss }: { id: number; onDismiss: () => void }) {
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle />}
      title={`No account #${id}`}
      mb="md"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
      data-testid="unknown-account"
    >
      The link names an account that does not exist: it may have been deleted, or the link is mistyped. Every account is
      listed below.
    </Alert>
  );
}
