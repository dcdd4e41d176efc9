import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import { ApiError } from '../../api/core/api-error.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { DeviceCodeProof, sentToText } from './device-code-proof.tsx';

const sent = (devices: string[], minutes = 10) => ({
  ExpiresUtc: formatTimestamp(new Date(Date.now() + minutes * 60_000)),
  Devices: devices,
});

describe('DeviceCodeProof', () => {
  it('names where the code went', () => {
    expect(sentToText(['Pixel 9'])).toBe('Sent to Pixel 9.');
    expect(sentToText(['Pixel 9', 'iPhone 16'])).toBe('Sent to Pixel 9 and 1 other.');
    expect(sentToText(['Pixel 9', 'iPhone 16', 'iPad'])).toBe('Sent to Pixel 9 and 2 others.');
  });

  it('sends, takes the typed code (spaces dropped), and says a wrong one in words', async () => {
    const send = vi.fn(async () => sent(['Pixel 9', 'iPhone 16']));
    const prove = vi
      .fn<(code: string) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError({
          kind: 'device-code-invalid',
          status: 401,
          title: 'Code not accepted',
          detail: 'That is not the code sent to your devices. 4 tries left on it.',
        }),
      )
      .mockResolvedValueOnce(undefined);
    const { user } = renderWithProviders(<DeviceCodeProof send={send} prove={prove} />);
    await user.click(screen.getByRole('button', { name: 'Send a code to my phone' }));
    expect(await screen.findByText(/Sent to Pixel 9 and 1 other\./)).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Code from your phone' });
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    await user.type(input, '123 456{Enter}');
    expect(prove).toHaveBeenLastCalledWith('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Wrong code.*4 tries left/);
    await user.click(screen.getByRole('button', { name: 'Confirm the code' }));
    expect(prove).toHaveBeenCalledTimes(2);
  });

  it('says when the code has expired, and when none can be sent', async () => {
    const send = vi
      .fn()
      .mockResolvedValueOnce(sent(['Pixel 9'], -1))
      .mockRejectedValueOnce(
        new ApiError({
          kind: 'too-many-requests',
          status: 429,
          title: 'Too many codes',
          retryAfterSeconds: 30,
        }),
      );
    const { user } = renderWithProviders(<DeviceCodeProof send={send} prove={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Send a code to my phone' }));
    expect(await screen.findByText(/has expired\. Send a new one\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Wait 30 seconds/);
  });

  it('at the second step of a sign-in, says the sign-in timed out with its code, and offers no new code', async () => {
    const send = vi.fn(async () => sent(['Pixel 9'], -1));
    const { user } = renderWithProviders(<DeviceCodeProof send={send} prove={vi.fn()} endsWithSignIn />);
    await user.click(screen.getByRole('button', { name: 'Send a code to my phone' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'This sign-in timed out, and the code sent to your phone with it. Start over to sign in.',
    );
    expect(screen.queryByRole('button', { name: 'Send a new code' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Code from your phone' }), '123456');
    expect(screen.getByRole('button', { name: 'Confirm the code' })).toBeDisabled();
    expect(send).toHaveBeenCalledTimes(1);
  });
});
