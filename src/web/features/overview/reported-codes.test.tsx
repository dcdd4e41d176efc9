import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportedCode } from '../../../shared/contract/index.ts';
import { json, renderWithProviders, routedFetch } from '../../test/render.tsx';
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
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([report]) }).fetch);
    renderWithProviders(<ReportedCodesSection />);
    const list = await screen.findByTestId('reported-codes');
    expect(within(list).getByText('ACME\\dana reported a code they did not ask for')).toBeInTheDocument();
    expect(await within(list).findByText(/from 198\.51\.100\.23 with Firefox 128 on Linux/)).toBeInTheDocument();
    expect(list).toHaveTextContent('Deploy payroll patch');
  });

  it('says when there is nothing to report', async () => {
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([]) }).fetch);
    renderWithProviders(<ReportedCodesSection />);
    expect(await screen.findByText('No one has reported a code they did not ask for.')).toBeInTheDocument();
  });
});
