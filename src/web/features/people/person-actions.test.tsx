import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account, Person } from '../../../shared/contract/index.ts';
import { StepUpHost } from '../../entities/second-factor/step-up-host.tsx';
import { inRouter, json, problem, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { PersonActions } from './person-actions.tsx';

const account: Account = {
  Id: 7,
  UserName: 'DEMO\\jane',
  Email: 'jane@example.com',
  Source: 'Local',
  Kind: 'Person',
  Enabled: true,
  Permissions: { Security: [], Accounts: [] },
  PermissionsEditable: true,
  LastSignInUtc: '2026-11-24 09:00:00.000',
  CreatedUtc: '2026-11-01 09:00:00.000',
  ActiveSessions: 2,
  SignInMethods: ['Passkey', 'RecoveryCode'],
};

const jane: Person = {
  UserName: 'DEMO\\jane',
  HasAccount: true,
  LastSignInUtc: account.LastSignInUtc,
  Account: account,
  AccountVisible: true,
  Devices: [],
  Requests: [],
  Codes: [],
  SignIns: [],
};

const RESET = 'POST /api/Admin/Accounts/7/SignInMethods/Reset';

/** Security Read and Write (the helpdesk's) and these Accounts permissions. */
function signInWithAccounts(accounts: ('Read' | 'Write')[]) {
  signInAs(['Read', 'Write'], {
    permissions: [
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
      { Entity: 'Accounts', Permissions: accounts },
    ],
  });
}

const resetButton = () => screen.queryByRole('button', { name: 'Reset sign-in methods' });

afterEach(() => vi.unstubAllGlobals());

describe('PersonActions: reset sign-in methods', () => {
  it('asks first, saying what happens, then resets the account’s methods', async () => {
    signInWithAccounts(['Read', 'Write']);
    const routes = routedFetch({
      [RESET]: () => json({ PasskeysRemoved: 1, RecoveryCodesRemoved: 8, DevicesRemoved: 2 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(inRouter(<PersonActions person={jane} />));

    await user.click(await screen.findByRole('button', { name: 'Reset sign-in methods' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the sign-in methods of DEMO\\jane?' });
    expect(dialog).toHaveTextContent('Their passkeys, recovery codes and devices are removed and their sessions end');
    expect(dialog).toHaveTextContent('They add a new second factor at their next sign-in.');
    expect(routes.called(RESET)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Reset sign-in methods' }));
    expect(await screen.findByText('Sign-in methods reset')).toBeInTheDocument();
    expect(screen.getByText(/2 devices removed\./)).toBeInTheDocument();
    expect(routes.called(RESET)).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: /Reset the sign-in methods/ })).not.toBeInTheDocument();
  });

  it('asks for the helpdesk’s own second factor in place when the server wants a recent one, then goes ahead', async () => {
    signInWithAccounts(['Read', 'Write']);
    let proved = false;
    const routes = routedFetch({
      [RESET]: () =>
        proved
          ? json({ PasskeysRemoved: 0, RecoveryCodesRemoved: 0, DevicesRemoved: 0 })
          : problem('step-up-required', 403, 'This action needs a recent second factor.'),
      'POST /api/Consumer/Authentication/StepUp': () => {
        proved = true;
        return json({ StepUpUntilUtc: '2026-11-24 10:00:00.000', Method: 'RecoveryCode' });
      },
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(
      inRouter(
        <>
          <PersonActions person={jane} />
          <StepUpHost />
        </>,
      ),
    );

    await user.click(await screen.findByRole('button', { name: 'Reset sign-in methods' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the sign-in methods of DEMO\\jane?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset sign-in methods' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.type(within(stepUp).getByLabelText('Recovery code'), 'abcd-efgh');
    await user.click(within(stepUp).getByRole('button', { name: 'Use the recovery code' }));

    await waitFor(() => expect(routes.called(RESET)).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /Reset the sign-in methods/ })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument();
  });

  it('says why in the dialog when the reset fails, and keeps the dialog open', async () => {
    signInWithAccounts(['Read', 'Write']);
    vi.stubGlobal('fetch', routedFetch({ [RESET]: problem('not-found', 404, 'No account has the Id 7.') }).fetch);
    const { user } = renderWithProviders(inRouter(<PersonActions person={jane} />));
    await user.click(await screen.findByRole('button', { name: 'Reset sign-in methods' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the sign-in methods of DEMO\\jane?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset sign-in methods' }));
    expect(await within(dialog).findByText(/No account has the Id 7\./)).toBeInTheDocument();
  });

  it('is not offered to those without Write on Accounts', async () => {
    signInWithAccounts(['Read']);
    renderWithProviders(inRouter(<PersonActions person={jane} />));
    // The page has rendered (the other actions are there, refused), without this one.
    expect(await screen.findByRole('button', { name: 'Sign out everywhere' })).toBeInTheDocument();
    expect(resetButton()).not.toBeInTheDocument();
  });

  it('is not offered for a person without an account here', async () => {
    signInWithAccounts(['Read', 'Write']);
    renderWithProviders(
      inRouter(<PersonActions person={{ ...jane, HasAccount: false, Account: null, LastSignInUtc: null }} />),
    );
    expect(await screen.findByRole('button', { name: 'Enrol a device for them' })).toBeInTheDocument();
    expect(resetButton()).not.toBeInTheDocument();
  });
});
