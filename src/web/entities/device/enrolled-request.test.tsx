import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AuthorizationRequest, formatTimestamp } from '../../../shared/contract/index.ts';
import { inRouter, json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { AddDeviceDialog } from './add-device-dialog.tsx';

const at = (offsetMs: number) => formatTimestamp(new Date(Date.now() + offsetMs));
const pixel = (id: number, created: string): AuthorizationRequest => ({
  Id: id,
  UserName: 'ACME\\jane.doe',
  UserEmail: '',
  RequestGuid: `9b2c7c4e-8a3d-4f6e-9d7a-1b2c3d4e5f6${id}`,
  DeviceType: 'Android',
  CreatedTimestampUtc: created,
  ModifiedTimestampUtc: created,
  Manufacturer: 'Google',
  Model: 'Pixel 8',
  OsVersion: '15',
  Status: 'Pending',
});

afterEach(() => vi.unstubAllGlobals());

describe('Enrol a device for a person, once their phone used the code', () => {
  it('turns into "ACME\\jane.doe\'s Pixel 8 registered" with Approve, instead of counting down', async () => {
    signInAs(['Read', 'Write']);
    let pending: AuthorizationRequest[] = [pixel(7, at(-60 * 60_000))];
    const routes = routedFetch({
      'POST /api/People/ACME%5Cjane.doe/EnrollmentLinks': json(
        { Code: 'c0de', Url: 'https://tachyon.example/device#enrol=c0de', ExpiresTimestampUtc: at(10 * 60_000) },
        { status: 201 },
      ),
      'GET /api/Consumer/Authentication/AuthorizationRequests': () => json(pending),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { queryClient, user } = renderWithProviders(
      inRouter(<AddDeviceDialog onClose={() => {}} forPerson={'ACME\\jane.doe'} />),
    );
    // An older request of hers (before this code) is not the phone in front of the helpdesk: still counting down.
    expect(await screen.findByText(/Works for (9:5\d|10:00) more/)).toBeInTheDocument();
    await waitFor(() =>
      expect(routes.called('GET /api/Consumer/Authentication/AuthorizationRequests')).toHaveLength(1),
    );
    expect(screen.queryByTestId('enrolled-request')).not.toBeInTheDocument();

    // The phone uses the code; the change stream refreshes the queue.
    pending = [...pending, pixel(8, at(5_000))];
    await queryClient.invalidateQueries();
    const enrolled = await screen.findByTestId('enrolled-request');
    expect(enrolled).toHaveTextContent("ACME\\jane.doe's Pixel 8 registered");
    expect(screen.queryByText(/Works for/)).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('dialog', { name: 'Approve this device?' })).toHaveTextContent('Pixel 8');
  });

  it('says it waits for an administrator when the person may not approve', async () => {
    signInAs(['Read']);
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Device/EnrollmentLinks': json(
          { Code: 'c0de', Url: 'https://tachyon.example/device#enrol=c0de', ExpiresTimestampUtc: at(10 * 60_000) },
          { status: 201 },
        ),
        'GET /api/Consumer/Authentication/AuthorizationRequests': json([
          { ...pixel(9, at(1_000)), UserName: 'DEMO\\admin' },
        ]),
      }).fetch,
    );
    renderWithProviders(inRouter(<AddDeviceDialog onClose={() => {}} />));
    const enrolled = await screen.findByTestId('enrolled-request');
    expect(enrolled).toHaveTextContent('It waits for an administrator to approve it');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });
});
