import { lazy, Suspense } from 'react';
import type { BulkBarProps } from './bulk-bar-props.ts';

export type { BulkAction, BulkBarProps } from './bulk-bar-props.ts';

// The bar shows only once a row is selected: its code (and SimpleGrid's) loads then, not with the list.
const BulkBarContent = lazy(() =>
  import('./bulk-bar-content.tsx').then((module) => ({ default: module.BulkBarContent })),
);

/** What to do with the selected rows; nothing while none is selected. */
export function BulkBar(props: BulkBarProps) {
  if (props.count === 0) return null;
  return (
    <Suspense fallback={null}>
      <BulkBarContent {...props} />
    </Suspense>
  );
}
