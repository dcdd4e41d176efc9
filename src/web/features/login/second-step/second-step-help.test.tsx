import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { json, renderWithProviders, routedFetch } from '../../../test/render.tsx';
import { SecondStep } from './second-step.tsx';

afterEach(() => vi.unstubAllGlobals());

const renderStep = (methods: string[]) =>
  renderWithProviders(
    <SecondStep step={{ ticket: 'ticket-1', methods }} onSignedIn={() => undefined} onRestart={() => undefined} />,
  );

describe('the second step when the passkey is out of reach', () => {
  it('names whom to ask, even for a person whose only method is a passkey', () => {
    renderStep(['Passkey']);
    const help = screen.getByRole('region', { name: 'No passkey with you?' });
    expect(help).toHaveTextContent('Ask your helpdesk for a temporary code');
    expect(help).toHaveTextContent("npm run reset-sign-in -- 'YOUR\\name'");
    // No way this person does not have is offered.
    expect(help).not.toHaveTextContent('recovery code');
    expect(help).not.toHaveTextContent('phone');
  });

  it('points at the recovery code and the phone when the person has them', () => {
    renderStep(['Passkey', 'DeviceCode', 'RecoveryCode']);
    const help = screen.getByRole('region', { name: 'No passkey with you?' });
    expect(help).toHaveTextContent('Send a code to your phone');
    expect(help).toHaveTextContent('Type one of your recovery codes');
  });

  it('says so when the passkey prompt closes without a passkey, instead of nothing', async () => {
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'POST /api/Consumer/Authentication/Passkey/Options': json({
          Options: { challenge: 'Y2hhbGxlbmdl', allowCredentials: [] },
        }),
      }).fetch,
    );
    vi.stubGlobal('PublicKeyCredential', class {});
    // The person closes the browser's prompt: it answers NotAllowedError, as browsers do.
    Object.defineProperty(navigator, 'credentials', {
      configurable: true,
      value: { get: () => Promise.reject(new DOMException('Not allowed.', 'NotAllowedError')) },
    });
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, 'credentials');
    });
    const { user } = renderStep(['Passkey']);
    await user.click(screen.getByRole('button', { name: 'Use your passkey' }));
    expect(await screen.findByRole('status')).toHaveTextContent('No passkey was used');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
