import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { DemoAccounts } from './demo-accounts.tsx';

describe('the demo accounts on the sign-in page', () => {
  it('tell the helpdesk from the admin by what each holds on Accounts, and fill the form with the one clicked', async () => {
    const onPick = vi.fn();
    const { user } = renderWithProviders(<DemoAccounts onPick={onPick} />);
    const card = (role: string) => screen.getByRole('button', { name: new RegExp(`^${role}`) });
    expect(within(card('Admin')).getByText('Accounts: Read, Write')).toBeVisible();
    expect(within(card('Helpdesk')).getByText('Security: Read, Write')).toBeVisible();
    expect(within(card('Helpdesk')).getByText('Accounts: Contain')).toBeVisible();
    expect(within(card('Auditor')).queryByText(/Accounts:/)).not.toBeInTheDocument();
    expect(within(card('Operator')).getByText('Tokens only')).toBeVisible();
    await user.click(card('Helpdesk'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ userName: 'DEMO\\helpdesk' }));
  });
});
