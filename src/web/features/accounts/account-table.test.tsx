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

describe('on a phone', () => {
  // Too narrow for the table: a window's width is the first guess at its frame's (jsdom lays nothing out).
  beforeEach(() => {
    vi.stubGlobal('innerWidth', 390);
    vi.stubGlobal('matchMedia', (media: string) => ({
      matches: true,
      media,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }));
  });

  it('each card says the permissions held in a line and shows their toggles on "Change permissions"', async () => {
    signInAs(['Read', 'Write'], {
      userName: 'CORP\\root',
      permissions: [
        { Entity: 'Security', Permissions: ['Read', 'Write'] },
        { Entity: 'Accounts', Permissions: ['Read', 'Write'] },
      ],
    });
    const { user } = renderWithProviders(
      <AccountTable accounts={[local, inside, directory]} onOpen={() => undefined} />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
    expect(row(local).getByText('Security Read, Security Write, Accounts Read, Accounts Write')).toBeInTheDocument();
    expect(row(inside).getByText('Accounts Read, Accounts Write')).toBeInTheDocument();

    const change = row(inside).getByRole('button', { name: 'Change permissions' });
    expect(change).toHaveAttribute('aria-expanded', 'false');
    await user.click(change);
    expect(row(inside).getByRole('button', { name: 'Done changing permissions' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(row(inside).getByRole('checkbox', { name: 'Accounts Write for ACME\\ana' })).toBeChecked();
    expect(row(inside).getByRole('checkbox', { name: 'Security Read for ACME\\ana' })).not.toBeChecked();
    // Only the card asked for opens.
    expect(row(local).queryAllByRole('checkbox')).toEqual([]);
    // Permissions the directory's groups set: nothing to change here, so nothing offered.
    expect(row(directory).queryByRole('button', { name: 'Change permissions' })).toBeNull();
  });

  it('offers no change to someone who may not change permissions, and still says what each account holds', () => {
    renderWithProviders(<AccountTable accounts={[local, inside]} onOpen={() => undefined} />);
    expect(screen.queryByRole('button', { name: 'Change permissions' })).toBeNull();
    expect(row(inside).getByText('Accounts Read, Accounts Write')).toBeInTheDocument();
  });
});
