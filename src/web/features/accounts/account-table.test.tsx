import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../shared/contract/index.ts';
import { inRouter, json, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { AccountDrawer } from './account-drawer.tsx';
import { AccountTable } from './account-table.tsx';

const local: Account = {
  Id: 1,
  UserName: 'CORP\\root',
  Source: 'Local',
  Enabled: true,
  Permissions: { Security: ['Read', 'Write'], Accounts: ['Read', 'Write'] },
  PermissionsEditable: true,
  LastSignInUtc: null,
  CreatedUtc: '2026-11-17 07:30:00.000',
  ActiveSessions: 0,
  InsideDirectoryDomain: false,
};
const inside: Account = {
  ...local,
  Id: 2,
  UserName: 'ACME\\ana',
  Permissions: { Security: [], Accounts: ['Read', 'Write'] },
  InsideDirectoryDomain: true,
};
const directory: Account = {
  ...local,
  Id: 3,
  UserName: 'ACME\\jo',
  Source: 'Directory',
  PermissionsEditable: false,
  InsideDirectoryDomain: false,
};
/** From a service without the extension: no mark. */
const older: Account = { ...local, Id: 4, UserName: 'CORP\\older' };
delete older.InsideDirectoryDomain;

const row = (account: Account) => within(screen.getByTestId(`account-row-${account.Id}`));

beforeEach(() => signInAs(['Read', 'Write'], { userName: 'CORP\\root' }));
afterEach(() => vi.unstubAllGlobals());

describe('local accounts inside the directory’s domain', () => {
  it('are marked in the list, with the reason on hover; other accounts are not', async () => {
    const { user } = renderWithProviders(
      <AccountTable accounts={[local, inside, directory, older]} onOpen={() => undefined} />,
    );
    const mark = row(inside).getByText('Local, inside directory domain');
    for (const other of [local, older]) {
      expect(row(other).getByText('Local')).toBeInTheDocument();
      expect(row(other).queryByText(/inside directory domain/)).toBeNull();
    }
    expect(row(directory).getByText('Directory')).toBeInTheDocument();
    expect(row(directory).queryByText(/inside directory domain/)).toBeNull();

    await user.hover(mark);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'the directory person of the same name cannot sign in while it exists',
    );
  });

  it('are explained in the account’s drawer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json([])),
    );
    renderWithProviders(inRouter(<AccountDrawer account={inside} onClose={() => undefined} />));
    const drawer = await screen.findByRole('dialog', { name: 'ACME\\ana' });
    expect(within(drawer).getByText('Local account, inside directory domain')).toBeInTheDocument();
    expect(within(drawer).getByRole('alert')).toHaveTextContent(
      'it keeps its own password and permissions, and the directory person of the same name cannot sign in',
    );
  });
});
