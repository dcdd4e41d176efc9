import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { handleStepUp } from '../../api/step-up.ts';

// The dialog (a modal with the passkey, phone-code and recovery-code proofs) loads when an action first asks for it,
// not with every signed-in page: most sessions never see it.
const StepUpDialog = lazy(() => import('./step-up-dialog.tsx').then((module) => ({ default: module.StepUpDialog })));

/**
 * Asks for a second factor in place when an action needs a recent one (403 step-up-required): a passkey, a code
 * sent to the person's phone, or a recovery code. The action's call waits meanwhile and goes again once it is
 * proved, so its dialog and what was typed in it stay as they were.
 */
export function StepUpHost() {
  const [pending, setPending] = useState(false);
  const settle = useRef<((proved: boolean) => void) | null>(null);
  useEffect(
    () =>
      handleStepUp(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            setPending(true);
          }),
      ),
    [],
  );
  const finish = (proved: boolean) => {
    settle.current?.(proved);
    settle.current = null;
    setPending(false);
  };
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog onDone={finish} />
    </Suspense>
  );
}
