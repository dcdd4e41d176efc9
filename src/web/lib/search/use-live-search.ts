import { useCallback, useDeferredValue, useState } from 'react';

/**
 * The URL holds the search (debounced, so history is not flooded); the list filters on what is typed right
 * now. A deferred value keeps typing responsive even when a filter pass over 50,000 rows takes a while: the
 * keystroke's own render leaves the list alone (pages memoize it), the deferred one filters and renders the rows.
 */
export function useLiveSearch(q: string | undefined): [search: string | undefined, onInput: (value: string) => void] {
  const [typed, setTyped] = useState<{ from: string | undefined; value: string } | null>(null);
  // A new URL value (back/forward, clear, or the debounced update itself) wins over what was typed before it.
  const current = typed && typed.from === q ? typed.value : q;
  const deferred = useDeferredValue(current);
  const onInput = useCallback((value: string) => setTyped({ from: q, value }), [q]);
  return [deferred?.trim() || undefined, onInput];
}
