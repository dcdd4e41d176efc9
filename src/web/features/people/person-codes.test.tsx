import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Person, SentCode } from '../../../shared/contract/index.ts';
import { inRouter, json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { PersonCodes } from './person-codes.tsx';

const reported: SentCode = {
  Id: 31,
  InstructionId: 1042,
  InstructionName: 'Deploy payroll patch',
  Scheduled: false,
  SentTimestampUtc: '2026-11-24 09:30:00.000',
  ClientAddress: '198.51.100.23',
  UserAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  DevicesNotified: 2,
  Outcome: 'Reported',
  ReportedTimestampUtc: '2026-11-24 09:31:00.000',
  HandledBy: null,
  HandledTimestampUtc: null,
};
const ended: SentCode = {
  ...reported,
  Id: 30,
  InstructionId: 1041,
  InstructionName: 'Restart the print server',
  Scheduled: true,
  UserAgent: null,
  ClientAddress: null,
  DevicesNotified: 1,
  Outcome: 'Expired',
  ReportedTimestampUtc: null,
};

const jane = (codes: SentCode[]): Person => ({
  UserName: 'DEMO\\jane',
  HasAccount: false,
  LastSignInUtc: null,
  Account: null,
  AccountVisible: true,
  Devices: [],
  Requests: [],
  Codes: codes,
  SignIns: [],
});

const item = (id: number) => document.querySelector(`[data-code-id="${id}"]`) as HTMLElement;

afterEach(() => vi.unstubAllGlobals());

describe('PersonCodes', () => {
  it('says of each code what asked for it, from where and with what, and what became of it', async () => {
    signInAs(['Read']);
    renderWithProviders(inRouter(<PersonCodes person={jane([reported, ended])} />));
    expect(await screen.findByRole('heading', { name: /Codes sent/ })).toHaveTextContent('Codes sent (2)');
    expect(item(31)).toHaveTextContent('Deploy payroll patch (instruction #1042)');
    await waitFor(() => expect(item(31)).toHaveTextContent('with Firefox 128 on Linux'));
    expect(item(31)).toHaveTextContent('to 2 devices · asked from 198.51.100.23 with Firefox 128 on Linux');
    expect(item(31)).toHaveTextContent('not handled yet');
    expect(item(30)).toHaveTextContent('Restart the print server (scheduled instruction #1041)');
    expect(item(30)).toHaveTextContent('to 1 device · asked from an unknown address');
    expect(item(30)).toHaveTextContent('Expired unused');
    // Read on Security alone: the report can be seen, not marked handled (the button says why).
    expect(
      within(item(31)).getByRole('button', { name: 'Mark the report of “Deploy payroll patch” handled' }),
    ).toHaveAttribute('aria-disabled', 'true');
  });

  it('marks a report handled (Write on Security), and then says by whom', async () => {
    signInAs(['Read', 'Write']);
    const routes = routedFetch({
      'POST /api/People/Reports/31/Handled': json({
        Id: 31,
        HandledBy: 'DEMO\\helpdesk',
        HandledTimestampUtc: '2026-11-24 09:40:00.000',
      }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(inRouter(<PersonCodes person={jane([reported])} />));
    await user.click(await screen.findByRole('button', { name: 'Mark the report of “Deploy payroll patch” handled' }));
    // Asked first, as every action on a person; nothing is sent before the answer.
    const confirm = await screen.findByRole('dialog', { name: 'Mark the report of “Deploy payroll patch” handled?' });
    expect(confirm).toHaveTextContent('Nothing else changes');
    await user.click(within(confirm).getByRole('button', { name: 'Mark handled' }));
    expect(await screen.findByText('Marked handled by DEMO\\helpdesk.')).toBeInTheDocument();
    expect(routes.called('POST /api/People/Reports/31/Handled')).toHaveLength(1);
  });

  it('says who handled a report, and when, instead of the button', async () => {
    signInAs(['Read', 'Write']);
    const handled = { ...reported, HandledBy: 'DEMO\\helpdesk', HandledTimestampUtc: '2026-11-24 09:40:00.000' };
    renderWithProviders(inRouter(<PersonCodes person={jane([handled])} />));
    await waitFor(() => expect(item(31)).toHaveTextContent('Handled by DEMO\\helpdesk'));
    expect(item(31)).not.toHaveTextContent('not handled yet');
    expect(within(item(31)).queryByRole('button', { name: /Mark/ })).not.toBeInTheDocument();
  });
});
