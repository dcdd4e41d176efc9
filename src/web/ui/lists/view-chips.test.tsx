import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ViewChips } from './view-chips.tsx';

type View = 'pending' | 'all';

function Views({ onChange }: { onChange: (value: View) => void }) {
  const [value, setValue] = useState<View>('pending');
  return (
    <ViewChips
      label="Which requests"
      name="view"
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
      options={[
        { value: 'pending', label: 'Pending (3)' },
        { value: 'all', label: 'All requests' },
      ]}
    />
  );
}

describe('ViewChips', () => {
  it('is a named radio group with the current view checked; a click changes it (the arrow keys: e2e/keyboard.spec.ts)', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Views onChange={onChange} />);
    const group = screen.getByRole('radiogroup', { name: 'Which requests' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Pending (3)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'All requests' })).not.toBeChecked();

    await user.click(screen.getByText('All requests'));
    expect(onChange).toHaveBeenLastCalledWith('all');
    expect(screen.getByRole('radio', { name: 'All requests' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Pending (3)' })).not.toBeChecked();
  });
});
