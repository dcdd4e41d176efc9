import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries } from '../../api/queries/queries.ts';
import { requestContextQueries } from '../../api/queries/request-context-queries.ts';
import {
  createTestQueryClient,
  inRouter,
  json,
  problem,
  renderWithProviders,
  scriptedFetch,
} from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { DecisionDialog } from './decision-dialog.tsx';

const request: AuthorizationRequest = {
  Id: 4,
  UserName: 'ACME\\hana.sato',
  UserEmail: 'hana.sato@acme.example',
  RequestGuid: '9b2c7c4e-8a3d-4f6e-9d7a-1b2c3d4e5f60',
  DeviceType: 'iOS',
  CreatedTimestampUtc: '2026-11-17 07:30:00.000',
  ModifiedTimestampUtc: '2026-11-17 07:30:00.000',
  Manufacturer: 'Apple',
  Model: 'iPhone 15',
  OsVersion: '17.6.1',
  Status: 'Pending',
};

/** What the service says of how the request came: known before the dialog opens (the queue's row asked already). */
const context: RequestContext = {
  AuthorizationRequestId: 4,
  UserName: 'ACME\\hana.sato',
  Origin: {
    Kind: 'Link',
    SignInMethod: null,
    LinkIssuedBy: 'DEMO\\helpdesk',
    LinkIssuedFor: 'ACME\\hana.sato',
    LinkIssuedTimestampUtc: '2026-11-17 07:25:00.000',
    ClientAddress: '198.51.100.7',
    UserAgent: null,
  },
  OtherDevices: [
    {
      State: 'Active',
      PushMessageUserId: 9,
      AuthorizationRequestId: null,
      DeviceType: 'iOS',
      Manufacturer: 'Apple',
      Model: 'iPhone 12',
      LastSeenTimestampUtc: null,
    },
  ],
  OpenReports: 0,
  Hints: [
    { Kind: 'HasActiveDevice', Text: 'ACME\\hana.sato already has an Active iPhone 12' },
    { Kind: 'NewAddress', Text: 'From an address never seen for ACME\\hana.sato' },
  ],
};

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

async function renderDialog(decision: 'approve' | 'reject') {
  const onClose = vi.fn();
  const onDecided = vi.fn();
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(requestContextQueries.one(request.Id).queryKey, context);
  const rendered = renderWithProviders(
    // Its context links to the person's other devices: inside a router, as in the app.
    inRouter(<DecisionDialog target={{ request, decision }} onClose={onClose} onDecided={onDecided} />),
    { queryClient },
  );
  // The router renders its first route after a tick.
  await screen.findByRole('dialog');
  return { ...rendered, onClose, onDecided };
}

describe('DecisionDialog', () => {
  it('approves with the comment, updates the cached lists and reports back', async () => {
    const decided = { ...request, Status: 'Authorized' as const, DecidedBy: 'DEMO\\admin', Comment: 'Called her' };
    const scripted = scriptedFetch(json(decided));
    vi.stubGlobal('fetch', scripted.fetch);
    const { user, onDecided, queryClient } = await renderDialog('approve');
    queryClient.setQueryData(authorizationRequestQueries.list({ view: 'pending' }).queryKey, [request]);

    expect(screen.getByRole('dialog', { name: 'Approve this device?' })).toBeInTheDocument();
    // What the approver should know, beside what the phone says of itself.
    expect(screen.getByText('ACME\\hana.sato already has an Active iPhone 12')).toBeInTheDocument();
    expect(screen.getByText('From an address never seen for ACME\\hana.sato')).toBeInTheDocument();
    expect(screen.getByText(/From an enrolment link issued by/)).toHaveTextContent(
      'From an enrolment link issued by DEMO\\helpdesk for ACME\\hana.sato',
    );
    await user.type(screen.getByRole('textbox', { name: /Comment/ }), '  Called her ');
    await user.click(screen.getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(onDecided).toHaveBeenCalledWith(decided));
    expect(scripted.calls[0]?.url).toBe('/api/Consumer/Authentication/AuthorizeDevice');
    expect(JSON.parse(String(scripted.calls[0]?.init.body))).toEqual({
      RequestId: 4,
      RequestGuid: request.RequestGuid,
      Authorized: true,
      Comment: 'Called her',
    });
    expect(queryClient.getQueryData(authorizationRequestQueries.list({ view: 'pending' }).queryKey)).toEqual([]);
    expect(await screen.findByText('Device approved')).toBeInTheDocument();
  });

  it('rejects with Authorized false and no comment when none was typed', async () => {
    const scripted = scriptedFetch(json({ ...request, Status: 'Rejected' }));
    vi.stubGlobal('fetch', scripted.fetch);
    const { user, onDecided } = await renderDialog('reject');
    const reject = screen.getByRole('button', { name: 'Reject' });
    // Destructive styling: the filled red of the theme, unlike Approve's primary colour.
    expect(reject.getAttribute('style')).toContain('--mantine-color-red-9');
    await user.click(reject);
    await waitFor(() => expect(onDecided).toHaveBeenCalled());
    expect(JSON.parse(String(scripted.calls[0]?.init.body))).toEqual({
      RequestId: 4,
      RequestGuid: request.RequestGuid,
      Authorized: false,
    });
  });

  it('keeps the typed comment when the call fails, and sends it again on retry', async () => {
    const scripted = scriptedFetch(new TypeError('Failed to fetch'), json({ ...request, Status: 'Rejected' }));
    vi.stubGlobal('fetch', scripted.fetch);
    const { user, onDecided } = await renderDialog('reject');

    await user.type(screen.getByRole('textbox', { name: /Comment/ }), 'Unknown device');
    await user.click(screen.getByRole('button', { name: 'Reject' }));

    expect(await screen.findByText('Cannot reach the server')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Comment/ })).toHaveValue('Unknown device');
    expect(onDecided).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(onDecided).toHaveBeenCalled());
    expect(JSON.parse(String(scripted.calls[1]?.init.body))).toMatchObject({ Comment: 'Unknown device' });
  });

  it('explains a 409, offers only Close, and refreshes the queue', async () => {
    const scripted = scriptedFetch(
      problem('already-decided', 409, 'Request 4 was already authorized by DEMO\\helpdesk.'),
    );
    vi.stubGlobal('fetch', scripted.fetch);
    const { user, onClose, queryClient } = await renderDialog('approve');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');

    await user.click(screen.getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('Someone already decided this request')).toBeInTheDocument();
    expect(screen.getByText(/already authorized by DEMO\\helpdesk/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: authorizationRequestQueries.all });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
