import { useState } from 'react';
import { passkeyCancelled } from '../../api/passkey-ceremonies.ts';

export interface SecondFactorProof {
  /** A proof is under way: its buttons show it and wait. */
  busy: boolean;
  /** What went wrong with the last proof, for the person to read; null while none did. */
  error: unknown;
  /** Runs a proof (and what follows it), clearing the last error first. */
  prove: (how: () => Promise<void>) => Promise<void>;
}

/**
 * The state of a second-factor proof that may open the browser's passkey prompt, shared by the sign-in page and the
 * step-up dialog: busy while it runs, and its failure kept to show, except a prompt the person closed, which is their
 * choice and no error worth a red box.
 */
export function useSecondFactorProof(): SecondFactorProof {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function prove(how: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await how();
    } catch (failure) {
      if (!passkeyCancelled(failure)) setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, prove };
}
