import { startTransition, useEffect, useState } from 'react';

/**
 * False in a component's first render and true soon after its commit (in a task of its own, so the browser paints
 * first). For code the first screen does not need: imported during the first render, it arrives and is evaluated
 * while React is still rendering the page in slices, and the page's first rows wait behind it.
 *
 * The render that follows is a transition, which React renders in slices: the toast and dialog hosts, the account
 * menu and the rest of a list were one task of 11-17 ms on a desktop CPU, four times that on a phone's.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setAfter(true)), 0);
    return () => clearTimeout(timer);
  }, []);
  return after;
}
