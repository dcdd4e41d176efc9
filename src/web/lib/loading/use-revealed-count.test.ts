import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useRevealedCount } from './use-revealed-count.ts';

describe('useRevealedCount', () => {
  it('starts with the first screen’s items and reveals the rest a few per task', async () => {
    const seen: number[] = [];
    const { result } = renderHook(() => {
      const count = useRevealedCount(11, 3, 4);
      seen.push(count);
      return count;
    });
    expect(seen[0]).toBe(3);
    await waitFor(() => expect(result.current).toBe(11));
    expect([...new Set(seen)]).toEqual([3, 7, 11]);
  });

  it('renders a short list whole from the start', () => {
    const { result } = renderHook(() => useRevealedCount(2, 3, 4));
    expect(result.current).toBe(2);
  });
});
