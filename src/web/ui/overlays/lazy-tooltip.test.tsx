import { ActionIcon } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { LazyTooltip } from './lazy-tooltip.tsx';

function Refresh() {
  return (
    <LazyTooltip label="Refresh now">
      <ActionIcon aria-label="Refresh">R</ActionIcon>
    </LazyTooltip>
  );
}

describe('LazyTooltip', () => {
  it('shows its label on hover, from the first hover on, and hides it when the mouse leaves', async () => {
    const { user } = renderWithProviders(<Refresh />);
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Refresh now');
    // The trigger keeps its name, and the tooltip describes it while open, as a Mantine Tooltip does.
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveAccessibleDescription('Refresh now');
    // The trigger was mounted anew under the mouse; a browser sends it the mouse's enter on its next move.
    await user.hover(screen.getByRole('button', { name: 'Refresh' }));
    await user.unhover(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await user.hover(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Refresh now');
  });

  it('keeps the focus on the trigger when the mouse first comes over it', async () => {
    const { user } = renderWithProviders(<Refresh />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveFocus();
    await user.hover(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByRole('tooltip');
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveFocus();
  });
});
