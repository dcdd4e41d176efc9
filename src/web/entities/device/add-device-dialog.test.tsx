import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import { json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { AddDeviceDialog } from './add-device-dialog.tsx';

const link = (code: string, minutes = 10) => ({
  Code: code,
  Url: `http://tachyon.example/device#enrol=${code}`,
  ExpiresTimestampUtc: formatTimestamp(new Date(Date.now() + minutes * 60_000)),
});

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('AddDeviceDialog', () => {
  it('shows a fresh enrolment link as a QR code and as text, with its expiry; "New code" makes another', async () => {
    const codes = [link('first-code'), link('second-code')];
    const routes = routedFetch({ 'POST /api/Device/EnrollmentLinks': () => json(codes.shift(), { status: 201 }) });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(<AddDeviceDialog onClose={() => {}} />);

    const qr = await screen.findByRole('img', { name: /QR code of the registration link .*#enrol=first-code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('textbox', { name: /Or open this link/ })).toHaveValue(
      'http://tachyon.example/device#enrol=first-code',
    );
    expect(screen.getByText(/Works for (9:5\d|10:00) more/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the link' })).toBeInTheDocument();
    expect(routes.called('POST /api/Device/EnrollmentLinks')).toHaveLength(1);
    expect(new Headers(routes.calls[0]?.init.headers).get('Authorization')).toBe('Bearer tok');

    await user.click(screen.getByRole('button', { name: 'New code' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Or open this link/ })).toHaveValue(
        'http://tachyon.example/device#enrol=second-code',
      ),
    );
    expect(routes.called('POST /api/Device/EnrollmentLinks')).toHaveLength(2);
  });

  it('says when the code has expired', async () => {
    vi.stubGlobal(
      'fetch',
      routedFetch({ 'POST /api/Device/EnrollmentLinks': json(link('old', -1), { status: 201 }) }).fetch,
    );
    renderWithProviders(<AddDeviceDialog onClose={() => {}} />);
    expect(await screen.findByText('This code has expired: make a new one.')).toBeInTheDocument();
  });

  it('gives focus back to what opened it when Escape closes it', async () => {
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Device/EnrollmentLinks': json(link('esc'), { status: 201 }),
        'GET /api/Consumer/Authentication/AuthorizationRequests': json([]),
      }).fetch,
    );
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Enrol a device for them
          </button>
          {open && <AddDeviceDialog forPerson={'ACME\\jane.doe'} onClose={() => setOpen(false)} />}
        </>
      );
    }
    const { user } = renderWithProviders(<Opener />);
    const opener = screen.getByRole('button', { name: 'Enrol a device for them' });
    await user.click(opener);
    await screen.findByRole('dialog', { name: 'Enrol a device for ACME\\jane.doe' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
