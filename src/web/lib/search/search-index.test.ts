import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexRows, matchIndexed, warmSearchIndex } from './search-index.ts';

describe('search index', () => {
  it('matches every word case-insensitively and keeps order', () => {
    const index = indexRows(
      [
        { id: 1, name: 'Ann', device: 'Pixel 8' },
        { id: 2, name: 'Bob', device: 'iPhone' },
        { id: 3, name: 'ann', device: 'iPhone' },
      ],
      (row) => [row.id, row.name, row.device],
    );
    expect(matchIndexed(index, 'ANN').map((row) => row.id)).toEqual([1, 3]);
    expect(matchIndexed(index, 'ann iphone').map((row) => row.id)).toEqual([3]);
    expect(matchIndexed(index, '  ').map((row) => row.id)).toEqual([1, 2, 3]);
    expect(matchIndexed(index, undefined, (row) => row.id > 1).map((row) => row.id)).toEqual([2, 3]);
  });

  it('builds the search texts only when a search needs them, or while the page is idle', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `User${i}` }));
    const index = indexRows(rows, (row) => [row.id, row.name]);
    expect(matchIndexed(index, undefined)).toHaveLength(5_000);
    expect(index.texts.filter(Boolean)).toHaveLength(0);
    expect(matchIndexed(index, 'USER4999').map((row) => row.id)).toEqual([4999]);
    expect(index.texts[10]).toBe('10 user10');

    vi.useFakeTimers();
    const fresh = indexRows(rows, (row) => [row.id, row.name]);
    warmSearchIndex(fresh);
    vi.runAllTimers();
    expect(fresh.texts.filter(Boolean)).toHaveLength(5_000);
    // Cancelled before it ran: nothing built.
    const cancelled = indexRows(rows, (row) => [row.id, row.name]);
    warmSearchIndex(cancelled)();
    vi.runAllTimers();
    expect(cancelled.texts.filter(Boolean)).toHaveLength(0);
  });
});

afterEach(() => {
  vi.useRealTimers();
});
