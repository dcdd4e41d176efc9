import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFirstScreen } from './use-first-screen.ts';

function Cards({ names, first }: { names: string[]; first: number }) {
  const shown = useFirstScreen(names, first);
  return (
    <ul>
      {shown.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  );
}

const NAMES = Array.from({ length: 11 }, (_, index) => `account ${index + 1}`);

describe('useFirstScreen', () => {
  it('commits the first screen, then every item in a later task', async () => {
    render(<Cards names={NAMES} first={3} />);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(NAMES.slice(0, 3));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(11));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(NAMES);
  });

  it('shows a short list whole at once', () => {
    render(<Cards names={NAMES.slice(0, 2)} first={3} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('follows the list after the first screen (a filter narrowing it, then widening it)', async () => {
    const { rerender } = render(<Cards names={NAMES} first={3} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(11));
    rerender(<Cards names={NAMES.slice(0, 5)} first={3} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    rerender(<Cards names={NAMES} first={3} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(11);
  });
});
