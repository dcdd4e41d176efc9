import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../shared/contract/index.ts';
import { inRouter, json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { AccountDrawer } from './account-drawer.tsx';
import { CreateAccountDialog } from './create-account-dialog.tsx';

const account: Account = {
  Id: 4,
  UserName: 'ACME\\dana',
  Email: null,
  Source: 'Local',
  Enabled: true,
  Permissions: { Security: ['Read'], Accounts: [] },
  PermissionsEditable: true,
  CreatedUtc: '2026-11-01 09:00:00.000',
  LastSignInUtc: null,
  ActiveSessions: 0,
};

beforeEach(() =>
  signInAs(['Read', 'Write'], {
    permissions: [
      { Entity: 'Security', Permissions: ['Read', 'Write'] },
      { Entity: 'Accounts', Permissions: ['Read', 'Write'] },
    ],
  }),
);
afterEach(() => vi.unstubAllGlobals());

describe('account email', () => {
  it('is sent with a new local account when given', async () => {
    const routes = routedFetch({ 'POST /api/Admin/Accounts': json({ ...account, Email: 'dana@acme.example' }) });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(<CreateAccountDialog onClose={() => {}} onCreated={() => {}} />);
    await user.type(screen.getByRole('textbox', { name: /User name/ }), 'ACME\\dana');
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'dana@acme.example');
    await user.type(screen.getByLabelText(/Initial password/), 'correct horse battery staple');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(routes.calls).toHaveLength(1));
    expect(JSON.parse(String(routes.calls[0]?.init.body))).toMatchObject({ Email: 'dana@acme.example' });
  });

  it("is changed in a local account's drawer", async () => {
    const routes = routedFetch({
      'GET /api/Admin/Accounts/4/History': json([]),
      'PUT /api/Admin/Accounts/4/Email': json({ ...account, Email: 'dana@acme.example' }),
      'GET /api/Admin/Accounts': json([{ ...account, Email: 'dana@acme.example' }]),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(inRouter(<AccountDrawer account={account} onClose={() => {}} />));
    const form = await screen.findByRole('form', { name: 'Email' });
    // The person's devices, codes and sign-ins are one click away (Read on Security).
    expect(screen.getByRole('link', { name: 'Their devices, codes and sign-ins' })).toHaveAttribute(
      'href',
      '/people/ACME%5Cdana',
    );
    await user.type(within(form).getByRole('textbox', { name: /Email/ }), 'dana@acme.example');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(routes.called('PUT /api/Admin/Accounts/4/Email')).toHaveLength(1));
    expect(JSON.parse(String(routes.called('PUT /api/Admin/Accounts/4/Email')[0]?.init.body))).toEqual({
      Email: 'dana@acme.example',
    });
  });

  it('of a directory account is shown as the directory gives it, not edited', async () => {
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/4/History': json([]) }).fetch);
    renderWithProviders(
      inRouter(
        <AccountDrawer account={{ ...account, Source: 'Directory', Email: 'dana@acme.example' }} onClose={() => {}} />,
      ),
    );
    expect(await screen.findByText('dana@acme.example')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Email' })).not.toBeInTheDocument();
  });
});
