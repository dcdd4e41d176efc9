import { lazy, Suspense } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog.tsx';

const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx'));

/** A confirmation, its code loaded on the first one asked for. */
export function Confirm(props: ConfirmDialogProps) {
  return (
    <Suspense fallback={null}>
      <ConfirmDialog {...props} />
    </Suspense>
  );
}
