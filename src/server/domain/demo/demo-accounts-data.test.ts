import { describe, expect, it } from 'vitest';
import { AccountList, PersonSummaryList } from '../../../shared/contract/index.ts';
import { ADMIN, HELPDESK, parseBody, useTestApp } from '../../test/harness.ts';

describe('the demo ACME people with accounts', () => {
  const { t, tokens } = useTestApp({ signIn: { helpdesk: HELPDESK, admin: ADMIN }, per: 'file' });
  it('can have a device enrolled for them by the helpdesk, and hold no permission', async () => {
    const people = parseBody(
      await t.call({ method: 'GET', url: '/api/People', token: tokens.helpdesk }),
      PersonSummaryList,
    );
    const withAccounts = people.filter((person) => person.UserName.startsWith('ACME\\') && person.HasAccount);
    expect(withAccounts.map((person) => person.UserName)).toEqual([
      'ACME\\alice.ng',
      'ACME\\dana.okafor',
      'ACME\\hana.sato',
    ]);

    const link = await t.call({
      method: 'POST',
      url: `/api/People/${encodeURIComponent('ACME\\alice.ng')}/EnrollmentLinks`,
      token: tokens.helpdesk,
    });
    expect(link.statusCode, link.body).toBe(201);

    const accounts = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: tokens.admin }),
      AccountList,
    );
    for (const person of withAccounts) {
      const account = accounts.find((row) => row.UserName === person.UserName);
      expect(account?.Permissions).toEqual({ Security: [], Accounts: [] });
    }
  });
});
