import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Instruction } from '../../../shared/contract/index.ts';
import { json, problem, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { SendCodePanel } from './send-code-panel.tsx';

const created: Instruction = {
  Id: 1043,
  Name: 'Dashboard test',
  Scheduled: true,
  State: 'AwaitingTwoFactor',
  TokenExpiresTimestampUtc: '2026-11-24 10:42:00.000',
  DevicesNotified: 2,
};

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('SendCodePanel', () => {
  it("makes an instruction of the form's kind and hands it to the form", async () => {
    const routes = routedFetch({ 'POST /api/Instructions': json(created, { status: 201 }) });
    vi.stubGlobal('fetch', routes.fetch);
    const onCreated = vi.fn();
    const { user } = renderWithProviders(<SendCodePanel kind="scheduled" onCreated={onCreated} />);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Scheduled instruction 1043 is waiting for its code, sent to 2 devices');
    expect(onCreated).toHaveBeenCalledWith(created);
    expect(JSON.parse(String(routes.calls[0]?.init.body))).toEqual({ Name: 'Dashboard test', Scheduled: true });
  });

  it('with no active device, says so and links to the device app', async () => {
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Instructions': problem('no-active-device', 409, 'Enrol a device at /device, and have it approved'),
      }).fetch,
    );
    const { user } = renderWithProviders(<SendCodePanel kind="instruction" onCreated={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No active device');
    expect(screen.getByRole('link', { name: /\/device$/ })).toHaveAttribute('href', '/device');
  });

  it('after too many codes, says when to try again', async () => {
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Instructions': problem('too-many-requests', 429, 'Too many codes', { 'Retry-After': '240' }),
      }).fetch,
    );
    const { user } = renderWithProviders(<SendCodePanel kind="instruction" onCreated={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('At most 5 codes are sent to you in 10 minutes');
    expect(alert).toHaveTextContent('Try again in 4 minutes (240 seconds).');
  });
});
