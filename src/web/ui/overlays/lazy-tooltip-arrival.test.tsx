import { ActionIcon } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { LazyTooltip } from './lazy-tooltip.tsx';

// needs-own-modules: the Tooltip's code is fetched once per module registry, and here it has not been yet.
describe('LazyTooltip, before its code has arrived', () => {
  it('stays closed when the mouse left before the Tooltip arrived, and opens at the next hover', async () => {
    const { user } = renderWithProviders(
      <LazyTooltip label="Refresh now">
        <ActionIcon aria-label="Refresh">R</ActionIcon>
      </LazyTooltip>,
    );
    const before = screen.getByRole('button', { name: 'Refresh' });
    // In and out within one task: the Tooltip's code cannot have arrived in between.
    fireEvent.pointerEnter(before);
    fireEvent.pointerLeave(before);
    // Armed once it has arrived: the trigger is mounted anew inside the Tooltip.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).not.toBe(before));
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Refresh now');
  });
});
