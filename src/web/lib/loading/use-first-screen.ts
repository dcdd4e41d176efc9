import { useAfterFirstPaint } from './use-after-first-paint.ts';

/**
 * The first `count` items, then all of them: the rest are rendered a task after the first paint, in a transition
 * (React renders it in slices). For a list of tall cards on a phone, whose first screen shows one or two: committed
 * at once, all of their style and layout fell into the first render's task, the longest of a page's load.
 */
export function useFirstScreen<T>(items: readonly T[], count: number): readonly T[] {
  const all = useAfterFirstPaint();
  return all || items.length <= count ? items : items.slice(0, count);
}
