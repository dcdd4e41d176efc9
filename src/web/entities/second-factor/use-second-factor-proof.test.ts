import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSecondFactorProof } from './use-second-factor-proof.ts';

/** A failure named as the browser names it. */
const named = (name: string) => Object.assign(new Error(`${name} from the browser`), { name });

describe('useSecondFactorProof', () => {
  it('is busy while a proof runs, and then neither busy nor failed', async () => {
    const hook = renderHook(() => useSecondFactorProof());
    let finish = () => {};
    let running: Promise<void> = Promise.resolve();
    act(() => {
      running = hook.result.current.prove(() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(hook.result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await running;
    });
    expect(hook.result.current).toMatchObject({ busy: false, error: null });
  });

  it('keeps a failure to show, and clears it when the next proof starts', async () => {
    const hook = renderHook(() => useSecondFactorProof());
    const refused = new Error('passkey refused');
    await act(() =>
      hook.result.current.prove(async () => {
        throw refused;
      }),
    );
    expect(hook.result.current).toMatchObject({ busy: false, error: refused });
    act(() => {
      void hook.result.current.prove(() => new Promise<void>(() => {}));
    });
    expect(hook.result.current).toMatchObject({ busy: true, error: null });
    hook.unmount();
  });

  it('shows no error when the person closed the passkey prompt or another sign-in cancelled it', async () => {
    const hook = renderHook(() => useSecondFactorProof());
    for (const name of ['NotAllowedError', 'AbortError']) {
      await act(() =>
        hook.result.current.prove(async () => {
          throw named(name);
        }),
      );
      expect(hook.result.current).toMatchObject({ busy: false, error: null });
    }
    await act(() =>
      hook.result.current.prove(async () => {
        throw named('SecurityError');
      }),
    );
    expect((hook.result.current.error as Error).name).toBe('SecurityError');
  });
});
