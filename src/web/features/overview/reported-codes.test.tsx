import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportedCode } from '../../../shared/contract/index.ts';
import { inRouter, json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { ReportedCodesSection } from './reported-codes.tsx';

const report: ReportedCode = {
  Id: 1,
  AccountId: 4,
  UserName: 'ACME\\dana',
  InstructionId: 1042,
  InstructionName: 'Deploy payroll patch',
  Scheduled: false,
  RequestedTimestampUtc: '2026-11-24 09:30:00.000',
  ClientAddress: '198.51.100.23',
  UserAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  ReportedTimestampUtc: '2026-11-24 09:31:00.000',
};

beforeEach(() => signInAs(['Read'], { permissions: [{ Entity: 'Accounts', Permissions: ['Read'] }] }));
afterEach(() => vi.unstubAllGlobals());

describe('ReportedCodesSection', () => {
  it('says who reported a code they did not ask for, when, and from where it was asked for', async () => {
    signInAs(['Read'], {
      permissions: [
        { Entity: 'Security', Permissions: ['Read'] },
        { Entity: 'Accounts', Permissions: ['Read'] },
      ],
    });
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([report]) }).fetch);
    renderWithProviders(inRouter(<ReportedCodesSection />));
    const list = await screen.findByTestId('reported-codes');
    expect(list).toHaveTextContent('ACME\\dana reported a code they did not ask for');
    // Their name opens their page, where the actions are.
    expect(within(list).getByRole('link', { name: 'ACME\\dana' })).toHaveAttribute('href', '/people/ACME%5Cdana');
    await waitFor(() => expect(list).toHaveTextContent(/from 198\.51\.100\.23 with Firefox 128 on Linux/));
    expect(list).toHaveTextContent('Deploy payroll patch');
  });

  it('marks a report handled (Write on Security), and then says by whom', async () => {
    signInAs(['Read', 'Write'], {
      permissions: [
        { Entity: 'Security', Permissions: ['Read', 'Write'] },
        { Entity: 'Accounts', Permissions: ['Read'] },
      ],
    });
    let handled = false;
    const routes = routedFetch({
      'GET /api/Admin/Accounts/ReportedCodes': () =>
        json([
          handled ? { ...report, HandledBy: 'DEMO\\helpdesk', HandledTimestampUtc: '2026-11-24 09:40:00.000' } : report,
        ]),
      'POST /api/People/Reports/1/Handled': () => {
        handled = true;
        return json({ Id: 1, HandledBy: 'DEMO\\helpdesk', HandledTimestampUtc: '2026-11-24 09:40:00.000' });
      },
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(inRouter(<ReportedCodesSection />));
    expect(await screen.findByText('1 open')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: "Mark ACME\\dana's report handled" }));
    expect(routes.called('POST /api/People/Reports/1/Handled')).toHaveLength(0);
    const confirm = await screen.findByRole('dialog', { name: "Mark ACME\\dana's report handled?" });
    await user.click(within(confirm).getByRole('button', { name: 'Mark handled' }));
    await waitFor(() => expect(screen.getByTestId('reported-codes')).toHaveTextContent(/Handled by DEMO\\helpdesk/));
    expect(screen.queryByText('1 open')).not.toBeInTheDocument();
  });

  it('links to the person only for those who may open their page (Read on Security)', async () => {
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([report]) }).fetch);
    renderWithProviders(inRouter(<ReportedCodesSection />));
    const list = await screen.findByTestId('reported-codes');
    expect(list).toHaveTextContent('ACME\\dana reported a code they did not ask for');
    expect(within(list).queryByRole('link')).not.toBeInTheDocument();
  });

  it('says when there is nothing to report', async () => {
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([]) }).fetch);
    renderWithProviders(inRouter(<ReportedCodesSection />));
    expect(await screen.findByText('No one has reported a code they did not ask for.')).toBeInTheDocument();
  });
});
