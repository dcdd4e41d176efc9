import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { atAppRoute, renderWithProviders, serverThatStops } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { AccountsPage } from './accounts-page.tsx';

const jane: Account = {
  Id: 7,
  UserName: 'DEMO\\jane',
  Source: 'Local',
  Kind: 'Person',
  Enabled: true,
  Permissions: { Security: [], Accounts: [] },
  PermissionsEditable: true,
  LastSignInUtc: null,
  CreatedUtc: '2026-11-01 09:00:00.000',
  ActiveSessions: 0,
};

const signInAsAccountsReader = () =>
  signInAs([], { permissions: [{ Entity: 'Accounts', Permissions: ['Read'] }], userName: 'DEMO\\auditor' });

afterEach(() => vi.unstubAllGlobals());

describe('the Accounts list while the server is unreachable', () => {
  it('keeps the accounts it showed, says the server is unreachable, and recovers on Try again', async () => {
    signInAsAccountsReader();
    const server = serverThatStops('GET /api/Admin/Accounts', [jane]);
    vi.stubGlobal('fetch', server.routes.fetch);
    const { user, queryClient } = renderWithProviders(atAppRoute('/accounts', AccountsPage));
    expect(await screen.findByTestId('account-row-7')).toHaveTextContent('DEMO\\jane');

    server.stop();
    await queryClient.refetchQueries({ queryKey: accountQueries.all });
    const notice = await screen.findByTestId('stale-list');
    expect(notice).toHaveTextContent('Cannot reach the server');
    expect(notice).toHaveTextContent('Below is the list as it was last shown');
    expect(screen.getByTestId('account-row-7')).toHaveTextContent('DEMO\\jane');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    server.back();
    await user.click(within(notice).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('stale-list')).not.toBeInTheDocument());
    expect(screen.getByTestId('account-row-7')).toBeInTheDocument();
  });

  it('says so in the list’s place when it never had an answer', async () => {
    signInAsAccountsReader();
    const server = serverThatStops('GET /api/Admin/Accounts', [jane]);
    server.stop();
    vi.stubGlobal('fetch', server.routes.fetch);
    renderWithProviders(atAppRoute('/accounts', AccountsPage));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the server');
    expect(screen.queryByTestId('stale-list')).not.toBeInTheDocument();
    expect(screen.queryByTestId('account-row-7')).not.toBeInTheDocument();
  });
});
