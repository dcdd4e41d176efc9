import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DeviceNotice,
  type DevicePush,
  type DeviceState,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import { eventStream, json, problem, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { LiveRegion } from '../../ui/live-region.tsx';
import { DeviceApp } from './device-app.tsx';

const CREDENTIAL = { token: 'device-secret', authorizationRequestId: 12 };

const pending: DeviceState = {
  AuthorizationRequestId: 12,
  RequestStatus: 'Pending',
  Comment: null,
  PushMessageUserId: null,
  PushMessageUserStatus: null,
  UserName: 'ACME\\dana',
  DeviceType: 'Android',
  PushEndpoint: null,
};
const approved: DeviceState = {
  ...pending,
  RequestStatus: 'Authorized',
  PushMessageUserId: 7,
  PushMessageUserStatus: 1,
};

function code(overrides: Partial<DevicePush> = {}): DevicePush {
  return {
    InstructionId: 1042,
    Purpose: 'Instruction',
    Name: 'Deploy payroll patch',
    Scheduled: false,
    Token: '482913',
    SentTimestampUtc: formatTimestamp(new Date(Date.now() - 60_000)),
    ExpiresTimestampUtc: formatTimestamp(new Date(Date.now() + 9 * 60_000)),
    ClientAddress: '203.0.113.7',
    UserAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ...overrides,
  };
}

const pushKey = json({ PublicKey: 'BKey', WebPushEnabled: false, Reason: 'Web Push is off on this service.' });

function registered() {
  localStorage.setItem('tachyon.device', JSON.stringify(CREDENTIAL));
}

function renderApp() {
  return renderWithProviders(
    <>
      <LiveRegion />
      <DeviceApp />
    </>,
  );
}

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const header = (init: RequestInit | undefined, name: string) => new Headers(init?.headers).get(name);

beforeEach(() => window.history.replaceState(null, '', '/device'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('enrolling', () => {
  it('signs in, registers with what the browser says (editable), ends the password session, then waits', async () => {
    const routes = routedFetch({
      'POST /api/Consumer/Authentication': json({
        Token: 'session-token',
        TokenType: 'Bearer',
        ExpiresUtc: '2026-01-01 00:00:00.000',
        UserName: 'ACME\\dana',
        Permissions: [],
      }),
      'POST /api/Device/Enrollments': json(
        { AuthorizationRequestId: 12, RequestGuid: 'g', DeviceToken: 'device-secret' },
        { status: 201 },
      ),
      'DELETE /api/Consumer/Authentication/Session': new Response(null, { status: 204 }),
      'GET /api/Device': json(pending),
      'GET /api/Device/Events': new Response(null, { status: 404 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(ANDROID);
    const { user } = renderApp();

    expect(screen.getByRole('heading', { name: 'Register this phone' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /User name/ }), 'ACME\\dana');
    await user.type(screen.getByLabelText(/^Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Register this device' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in as ACME\\dana/)).toBeInTheDocument();
    // Filled in from this browser, and the person's own words are sent.
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Device type/ })).toHaveValue('Android'), {
      timeout: 5000,
    });
    expect(screen.getByRole('textbox', { name: /OS version/ })).toHaveValue('14');
    await user.clear(screen.getByRole('textbox', { name: /Model/ }));
    await user.type(screen.getByRole('textbox', { name: /Model/ }), 'Pixel 9');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { name: 'Waiting for approval' })).toBeInTheDocument();
    const [enrolment] = routes.called('POST /api/Device/Enrollments');
    expect(header(enrolment?.init, 'Authorization')).toBe('Bearer session-token');
    expect(JSON.parse(String(enrolment?.init.body))).toMatchObject({ DeviceType: 'Android', Model: 'Pixel 9' });
    expect(routes.called('DELETE /api/Consumer/Authentication/Session')).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem('tachyon.device') ?? 'null')).toEqual(CREDENTIAL);
    expect(header(routes.called('GET /api/Device')[0]?.init, 'Authorization')).toBe('Device device-secret');
  });

  it('enrols from a link without a password, and takes the code out of the address', async () => {
    window.history.replaceState(null, '', '/device#enrol=link-code');
    const routes = routedFetch({
      'POST /api/Device/Enrollments': json(
        { AuthorizationRequestId: 12, RequestGuid: 'g', DeviceToken: 'device-secret' },
        { status: 201 },
      ),
      'GET /api/Device': json(pending),
      'GET /api/Device/Events': new Response(null, { status: 404 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();

    expect(screen.getByRole('heading', { name: 'Register this device' })).toBeInTheDocument();
    expect(screen.getByText(/no password is needed/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Device type/ })).not.toHaveValue(''));
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { name: 'Waiting for approval' })).toBeInTheDocument();
    const [enrolment] = routes.called('POST /api/Device/Enrollments');
    expect(header(enrolment?.init, 'Authorization')).toBeNull();
    expect(JSON.parse(String(enrolment?.init.body))).toMatchObject({ EnrollmentCode: 'link-code' });
    expect(window.location.hash).toBe('');
    // No "already registered" notice: the link was this enrolment's.
    expect(screen.queryByText('This phone is already registered')).not.toBeInTheDocument();
  });

  it('says when a link no longer works, and offers to sign in instead', async () => {
    window.history.replaceState(null, '', '/device#enrol=used-code');
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Device/Enrollments': problem('enrollment-code-invalid', 401, 'This enrolment code is not valid.'),
      }).fetch,
    );
    const { user } = renderApp();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Device type/ })).not.toHaveValue(''));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link no longer works');
    await user.click(screen.getByRole('button', { name: 'Sign in instead' }));
    expect(screen.getByRole('heading', { name: 'Register this phone' })).toBeInTheDocument();
    expect(window.location.hash).toBe('');
  });
});

describe('a registered device', () => {
  it('turns "Waiting for approval" into Approved from its live stream, without a reload, and says so', async () => {
    registered();
    const stream = eventStream();
    const routes = routedFetch({
      'GET /api/Device': json(pending),
      'GET /api/Device/Events': () => stream.response(),
      'GET /api/Device/Pushes': json([]),
      'GET /api/Device/Notices': json([]),
      'GET /api/Device/PushKey': pushKey,
    });
    vi.stubGlobal('fetch', routes.fetch);
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Waiting for approval' })).toBeInTheDocument();
    await waitFor(() => expect(routes.called('GET /api/Device/Events')).toHaveLength(1));

    stream.send(1, 'device', { Type: 'device', Device: approved });
    expect(await screen.findByRole('heading', { name: 'Approved' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('live-region')).toHaveTextContent(/Approved/));
    // A code arriving on the stream shows at once.
    stream.send(2, 'token', { Type: 'token', Push: code() });
    expect(await screen.findByTestId('device-code')).toHaveAttribute('data-code', '482913');
    stream.send(3, 'token-ended', { Type: 'token-ended', InstructionId: 1042 });
    await waitFor(() => expect(screen.queryByTestId('device-code')).not.toBeInTheDocument());
    expect(header(routes.called('GET /api/Device/Events')[0]?.init, 'Authorization')).toBe('Device device-secret');
  });

  it('shows each code large in groups of three, its countdown, where it was asked for; "This wasn\'t me" reports it', async () => {
    registered();
    let reported = false;
    const routes = routedFetch({
      'GET /api/Device': json(approved),
      'GET /api/Device/Events': new Response(null, { status: 404 }),
      'GET /api/Device/Pushes': () => json(reported ? [] : [code()]),
      'GET /api/Device/Notices': json([]),
      'GET /api/Device/PushKey': pushKey,
      'POST /api/Device/Pushes/1042/Report': () => {
        reported = true;
        return new Response(null, { status: 204 });
      },
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();

    const card = await screen.findByRole('listitem', { name: 'Deploy payroll patch' });
    expect(within(card).getByTestId('device-code')).toHaveTextContent('482913');
    expect(within(card).getByText('482')).toBeInTheDocument();
    expect(within(card).getByText('913')).toBeInTheDocument();
    expect(within(card).getByText(/Code: 4 8 2 9 1 3/)).toBeInTheDocument();
    expect(within(card).getByText(/Works for (8:5\d|9:00) more/)).toBeInTheDocument();
    await waitFor(() =>
      expect(within(card).getByText(/from 203\.0\.113\.7 with Chrome 131 on Windows 10/)).toBeInTheDocument(),
    );
    expect(within(card).getByRole('button', { name: /Copy the code for Deploy payroll patch/ })).toBeInTheDocument();
    // A browser without Web Push (jsdom): said, and no switch that cannot work.
    expect(screen.getByText(/This browser cannot show notifications/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Turn on notifications/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: /This wasn’t me/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a code you did not ask for?' });
    expect(dialog).toHaveTextContent('every session of your account ends');
    expect(routes.called('POST /api/Device/Pushes/1042/Report')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Report it' }));

    await waitFor(() => expect(screen.queryByTestId('device-code')).not.toBeInTheDocument());
    expect(routes.called('POST /api/Device/Pushes/1042/Report')).toHaveLength(1);
    expect(screen.getByText('Reported')).toBeInTheDocument();
  });

  it('a report that fails says why in its dialog and reports nothing; asked again, the old error is gone', async () => {
    registered();
    const routes = routedFetch({
      'GET /api/Device': json(approved),
      'GET /api/Device/Events': new Response(null, { status: 404 }),
      'GET /api/Device/Pushes': json([code()]),
      'GET /api/Device/Notices': json([]),
      'GET /api/Device/PushKey': pushKey,
      'POST /api/Device/Pushes/1042/Report': () =>
        problem('not-found', 404, 'A code of instruction 1042 was not found.'),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();

    const card = await screen.findByRole('listitem', { name: 'Deploy payroll patch' });
    await user.click(within(card).getByRole('button', { name: /This wasn’t me/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Report a code you did not ask for?' });
    await user.click(within(dialog).getByRole('button', { name: 'Report it' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A code of instruction 1042 was not found.');
    expect(routes.called('POST /api/Device/Pushes/1042/Report')).toHaveLength(1);
    expect(screen.queryByText('Reported')).not.toBeInTheDocument();
    expect(within(card).getByTestId('device-code')).toHaveTextContent('482913');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(card).getByRole('button', { name: /This wasn’t me/ }));
    dialog = await screen.findByRole('dialog', { name: 'Report a code you did not ask for?' });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says on the stream when a new device was added for the person, and "This wasn\'t me" reports it', async () => {
    registered();
    const stream = eventStream();
    const notice: DeviceNotice = {
      Id: 5,
      Kind: 'enrolled',
      AuthorizationRequestId: 31,
      DeviceType: 'Android',
      Manufacturer: 'Samsung',
      Model: 'Galaxy S24',
      OsVersion: 'Android 15',
      EnrolledTimestampUtc: formatTimestamp(new Date(Date.now() - 120_000)),
      NoticeTimestampUtc: formatTimestamp(new Date(Date.now() - 120_000)),
      RequestStatus: 'Pending',
      ReportedTimestampUtc: null,
    };
    const notices = { current: [] as DeviceNotice[] };
    const routes = routedFetch({
      'GET /api/Device': json(approved),
      'GET /api/Device/Events': () => stream.response(),
      'GET /api/Device/Pushes': json([]),
      'GET /api/Device/Notices': () => json(notices.current),
      'GET /api/Device/PushKey': pushKey,
      'POST /api/Device/Notices/5/Report': new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();
    expect(await screen.findByRole('heading', { name: 'Approved' })).toBeInTheDocument();
    // Nothing to tell: no section at all.
    await waitFor(() => expect(routes.called('GET /api/Device/Notices').length).toBeGreaterThan(0));
    expect(screen.queryByRole('heading', { name: 'New devices' })).not.toBeInTheDocument();

    await waitFor(() => expect(routes.called('GET /api/Device/Events')).toHaveLength(1));
    stream.send(1, 'notice', { Type: 'notice', Notice: notice });
    const card = await screen.findByRole('listitem', { name: 'A new device was added for you' });
    expect(card).toHaveTextContent('Samsung Galaxy S24 (Android 15), Android');
    expect(card).toHaveTextContent(/2 minutes ago/);
    expect(card).toHaveTextContent('It waits for an administrator’s approval.');
    await waitFor(() => expect(screen.getByTestId('live-region')).toHaveTextContent(/A new device was added for you/));

    await user.click(within(card).getByRole('button', { name: /This wasn’t me/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a device you did not add?' });
    expect(dialog).toHaveTextContent('Samsung Galaxy S24 (Android 15), Android is rejected at once');
    expect(routes.called('POST /api/Device/Notices/5/Report')).toHaveLength(0);
    notices.current = [{ ...notice, RequestStatus: 'Rejected', ReportedTimestampUtc: formatTimestamp(new Date()) }];
    await user.click(within(dialog).getByRole('button', { name: 'Report it' }));

    await waitFor(() => expect(routes.called('POST /api/Device/Notices/5/Report')).toHaveLength(1));
    expect(await screen.findByText('You reported it')).toBeInTheDocument();
    expect(screen.getByTestId('device-notice')).toHaveTextContent('It was rejected: it gets no codes.');
    expect(screen.getByText('Reported')).toBeInTheDocument();
  });

  it('says on the stream when a temporary code was issued for the person: who, until when, and whom to call', async () => {
    registered();
    const stream = eventStream();
    const until = new Date(Date.now() + 3_600_000);
    const notice: DeviceNotice = {
      Id: 8,
      Kind: 'temporary-code',
      TemporaryCodeId: 3,
      IssuedBy: 'ACME\\helpdesk',
      NoticeTimestampUtc: formatTimestamp(new Date(Date.now() - 120_000)),
      ValidUntilUtc: formatTimestamp(until),
    };
    const routes = routedFetch({
      'GET /api/Device': json(approved),
      'GET /api/Device/Events': () => stream.response(),
      'GET /api/Device/Pushes': json([]),
      'GET /api/Device/Notices': json([]),
      'GET /api/Device/PushKey': pushKey,
    });
    vi.stubGlobal('fetch', routes.fetch);
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Approved' })).toBeInTheDocument();
    await waitFor(() => expect(routes.called('GET /api/Device/Events')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Temporary codes' })).not.toBeInTheDocument();

    stream.send(1, 'notice', { Type: 'notice', Notice: notice });
    const card = await screen.findByRole('listitem', { name: 'A temporary code was issued for you' });
    expect(card).toHaveTextContent(
      /ACME\\helpdesk issued it 2 minutes ago.*, so that you can sign in without this phone\./,
    );
    expect(card).toHaveTextContent(/It works until .+, unless it is used up or revoked first\./);
    expect(card).toHaveTextContent('Not you who asked for it? Call your helpdesk at once: they can revoke it.');
    // Not a device: nothing to report here, and no "New devices" section for it.
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'New devices' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('live-region')).toHaveTextContent(
        'A temporary code was issued for you by ACME\\helpdesk.',
      ),
    );
  });

  it('"This wasn\'t me" ends the other codes shown too: the inbox asks again at once, and none "works for" any more', async () => {
    registered();
    let reported = false;
    const other = code({ InstructionId: 1041, Name: 'Restart the print server', Token: '111222' });
    const routes = routedFetch({
      'GET /api/Device': json(approved),
      // The stream is down: without asking again, the phone would learn it only at its next poll.
      'GET /api/Device/Events': new Response(null, { status: 404 }),
      'GET /api/Device/Pushes': () => json(reported ? [] : [code(), other]),
      'GET /api/Device/Notices': json([]),
      'GET /api/Device/PushKey': pushKey,
      'POST /api/Device/Pushes/1042/Report': () => {
        reported = true;
        return new Response(null, { status: 204 });
      },
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();

    const card = await screen.findByRole('listitem', { name: 'Deploy payroll patch' });
    expect(screen.getAllByText(/Works for .* more/)).toHaveLength(2);
    await user.click(within(card).getByRole('button', { name: /This wasn’t me/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a code you did not ask for?' });
    expect(dialog).toHaveTextContent('and every other code waiting for you stop working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Report it' }));

    await waitFor(() => expect(screen.queryByTestId('device-code')).not.toBeInTheDocument());
    expect(screen.queryByText(/Works for .* more/)).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'That code and every other code waiting for you no longer work',
    );
  });

  it('says why a rejected, disabled or ended device gets no codes, and what to do', async () => {
    registered();
    const answer = { current: json({ ...pending, RequestStatus: 'Rejected', Comment: 'Unknown phone' }) as Response };
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'GET /api/Device': () => answer.current.clone(),
        'GET /api/Device/Events': new Response(null, { status: 404 }),
      }).fetch,
    );
    const first = renderApp();
    expect(await screen.findByRole('heading', { name: 'Request rejected' })).toBeInTheDocument();
    expect(screen.getByText('Unknown phone')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register again' })).toBeInTheDocument();
    first.unmount();

    answer.current = json({ ...approved, PushMessageUserStatus: 2 });
    const second = renderApp();
    expect(await screen.findByRole('heading', { name: 'This device is disabled' })).toBeInTheDocument();
    expect(screen.getByText(/Ask your administrator or helpdesk to enable it again/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Sign-in codes' })).not.toBeInTheDocument();
    second.unmount();

    answer.current = problem('device-ended', 401, 'This device was removed.');
    const { user } = renderApp();
    expect(await screen.findByRole('heading', { name: 'This device is no longer registered' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Register again' }));
    expect(screen.getByRole('heading', { name: 'Register this phone' })).toBeInTheDocument();
    expect(localStorage.getItem('tachyon.device')).toBeNull();
  });

  it('removes the device after a confirmation, and starts again', async () => {
    registered();
    const routes = routedFetch({
      'GET /api/Device': json(pending),
      'GET /api/Device/Events': new Response(null, { status: 404 }),
      'DELETE /api/Device': new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderApp();
    await user.click(await screen.findByRole('button', { name: 'Remove this device' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this device?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove this device' }));
    expect(await screen.findByRole('heading', { name: 'Register this phone' })).toBeInTheDocument();
    expect(routes.called('DELETE /api/Device')).toHaveLength(1);
    expect(localStorage.getItem('tachyon.device')).toBeNull();
  });
});
