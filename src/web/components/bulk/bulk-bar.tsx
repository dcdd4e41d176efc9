import { lazy, Suspense } from 'react';

export interface BulkAction {
  key: string | number;
  /** Without the count: "Approve" becomes "Approve 3". */
  label: string;
  onClick: () => void;
  color?: string | undefined;
  variant?: 'filled' | 'light' | 'default' | undefined;
}

export interface BulkBarProps {
  count: number;
  total: number;
  allSelected: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  actions: BulkAction[];
}

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
