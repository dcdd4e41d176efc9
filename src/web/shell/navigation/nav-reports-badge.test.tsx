import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportedCode } from '../../../shared/contract/index.ts';
import { json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { NavReportsBadge } from './nav-reports-badge.tsx';

const report = (id: number, handled = false): ReportedCode => ({
  Id: id,
  AccountId: 4,
  UserName: 'ACME\\jane.doe',
  InstructionId: 1042,
  InstructionName: 'Deploy payroll patch',
  Scheduled: false,
  RequestedTimestampUtc: '2026-11-24 09:30:00.000',
  ClientAddress: '198.51.100.23',
  UserAgent: null,
  ReportedTimestampUtc: '2026-11-24 09:31:00.000',
  ...(handled ? { HandledBy: 'DEMO\\helpdesk', HandledTimestampUtc: '2026-11-24 09:40:00.000' } : {}),
});

afterEach(() => vi.unstubAllGlobals());

describe('NavReportsBadge', () => {
  it('counts the open reports for the helpdesk (Security, no Accounts permission)', async () => {
    signInAs(['Read', 'Write']);
    vi.stubGlobal(
      'fetch',
      routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([report(3), report(2), report(1, true)]) }).fetch,
    );
    renderWithProviders(<NavReportsBadge />);
    expect(await screen.findByTestId('open-reports-count')).toHaveTextContent('2');
    expect(screen.getByLabelText('2 open reports')).toBeInTheDocument();
  });

  it('shows nothing when every report is handled, and asks nothing of someone who may not read them', async () => {
    signInAs(['Read']);
    const routes = routedFetch({ 'GET /api/Admin/Accounts/ReportedCodes': json([report(1, true)]) });
    vi.stubGlobal('fetch', routes.fetch);
    const { unmount } = renderWithProviders(<NavReportsBadge />);
    await vi.waitFor(() => expect(routes.called('GET /api/Admin/Accounts/ReportedCodes')).toHaveLength(1));
    expect(screen.queryByTestId('open-reports-count')).not.toBeInTheDocument();
    unmount();

    signInAs([]);
    renderWithProviders(<NavReportsBadge />);
    expect(routes.called('GET /api/Admin/Accounts/ReportedCodes')).toHaveLength(1);
    expect(screen.queryByTestId('open-reports-count')).not.toBeInTheDocument();
  });
});
