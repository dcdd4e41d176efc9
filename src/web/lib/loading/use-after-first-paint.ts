import { startTransition, useEffect, useState } from 'react';

/**
 * False in a component's first render and true soon after its commit (in a task of its own, so the browser paints
 * first). For code the first screen does not need: imported during the first render, it arrives and is evaluated
 * while React is still rendering the page in slices, and the page's first rows wait behind it.
 *
 * `inTransition`: the render that follows is a transition, which React renders in slices (for much to render).
 */
export function useAfterFirstPaint({ inTransition = false }: { inTransition?: boolean } = {}): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => (inTransition ? startTransition(() => setAfter(true)) : setAfter(true)), 0);
    return () => clearTimeout(timer);
  }, [inTransition]);
  return after;
}
