import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Account, Permission, Person } from '../../../shared/contract/index.ts';
import { inRouter, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { ReportAlert, UnknownPerson } from './person-notices.tsx';

const account = { Id: 7, UserName: 'DEMO\\jane' } as Account;
const jane: Person = {
  UserName: 'DEMO\\jane',
  HasAccount: true,
  LastSignInUtc: null,
  Account: account,
  AccountVisible: true,
  Devices: [],
  Requests: [],
  Codes: [],
  SignIns: [],
};

function signIn(security: Permission[], accounts: Permission[]) {
  signInAs(security, {
    permissions: [
      { Entity: 'Security', Permissions: security },
      { Entity: 'Accounts', Permissions: accounts },
    ],
  });
}

describe('ReportAlert', () => {
  it('says what already happened, and points an account administrator to the reset and the report', async () => {
    signIn(['Read', 'Write'], ['Read', 'Write']);
    renderWithProviders(inRouter(<ReportAlert person={jane} reports={1} />));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('all their sessions and the codes waiting for them were ended');
    expect(alert).toHaveTextContent('then reset their sign-in methods under Actions');
    expect(alert).toHaveTextContent('Then mark the report handled.');
  });

  it('sends the helpdesk, who cannot reset, to an account administrator instead', async () => {
    signIn(['Read', 'Write'], []);
    renderWithProviders(
      inRouter(<ReportAlert person={{ ...jane, Account: null, AccountVisible: false }} reports={2} />),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('of 2 codes they did not ask for');
    expect(alert).toHaveTextContent('ask an account administrator to reset their password or sign-in methods');
    expect(alert).not.toHaveTextContent('under Actions');
    expect(alert).toHaveTextContent('Then mark the report handled.');
  });

  it('asks nothing of a reader that they cannot do', async () => {
    signIn(['Read'], []);
    renderWithProviders(
      inRouter(<ReportAlert person={{ ...jane, Account: null, AccountVisible: false }} reports={1} />),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).not.toHaveTextContent('mark the report handled');
  });
});

describe('UnknownPerson', () => {
  it('says nobody here has the name, and searches People for it without its domain', async () => {
    signIn(['Read'], []);
    renderWithProviders(inRouter(<UnknownPerson userName="ACME\jane.doe" />));
    expect(await screen.findByRole('heading', { name: 'Nobody by that name' })).toBeInTheDocument();
    expect(screen.getByText(/No account, authorization request or push user here has the user name/)).toHaveTextContent(
      'ACME\\jane.doe',
    );
    expect(screen.getByRole('link', { name: 'Search People for “jane.doe”' })).toHaveAttribute(
      'href',
      '/people?q=jane.doe',
    );
  });
});
