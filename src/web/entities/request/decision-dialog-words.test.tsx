import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '../../../shared/contract/index.ts';
import { requestContextQueries } from '../../api/queries/request-context-queries.ts';
import { createTestQueryClient, inRouter, json, renderWithProviders, scriptedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { DecisionDialog } from './decision-dialog.tsx';

const request: AuthorizationRequest = {
  Id: 4,
  UserName: 'ACME\\jane.doe',
  UserEmail: '',
  RequestGuid: '9b2c7c4e-8a3d-4f6e-9d7a-1b2c3d4e5f60',
  DeviceType: 'Android',
  CreatedTimestampUtc: '2026-11-17 07:30:00.000',
  ModifiedTimestampUtc: '2026-11-17 07:30:00.000',
  Manufacturer: 'Google',
  Model: 'Pixel 8',
  OsVersion: '15',
  Status: 'Pending',
};

/** How the request came, known before the dialog opens (the queue's row asked already): nothing recorded. */
const context: RequestContext = {
  AuthorizationRequestId: 4,
  UserName: 'ACME\\jane.doe',
  Origin: {
    Kind: 'NotRecorded',
    SignInMethod: null,
    LinkIssuedBy: null,
    LinkIssuedFor: null,
    LinkIssuedTimestampUtc: null,
    ClientAddress: null,
    UserAgent: null,
  },
  OtherDevices: [],
  OpenReports: 0,
  Hints: [],
};

beforeEach(() => signInAs());

/** The dialog with its context already known, so that it asks the service for nothing but the decision. */
async function renderDialog(decision: 'approve' | 'reject') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(requestContextQueries.one(request.Id).queryKey, context);
  const rendered = renderWithProviders(
    inRouter(<DecisionDialog target={{ request, decision }} onClose={() => {}} onDecided={() => {}} />),
    { queryClient },
  );
  await screen.findByRole('dialog');
  return rendered;
}
afterEach(() => vi.unstubAllGlobals());

describe('the decision dialog in words', () => {
  it('names a person without an email address without empty parentheses', async () => {
    await renderDialog('approve');
    const dialog = screen.getByRole('dialog', { name: 'Approve this device?' });
    expect(dialog).toHaveTextContent('ACME\\jane.doe');
    expect(dialog.textContent).not.toMatch(/\(\s*\)/);
  });

  it('tells of a rejection as a decision made, not in the red of an error', async () => {
    vi.stubGlobal('fetch', scriptedFetch(json({ ...request, Status: 'Rejected' })).fetch);
    const { user } = await renderDialog('reject');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const notice = (await screen.findByText('Request rejected')).closest('.mantine-Notification-root');
    await waitFor(() => expect(notice).not.toBeNull());
    expect(notice?.getAttribute('style') ?? '').not.toContain('red');
    expect(notice?.getAttribute('style') ?? '').toContain('gray');
  });
});
