/**
 * `modals.open*` reach the ModalsProvider through window events, so a modal asked for before the lazily loaded
 * host listens would be lost (toasts have a store and wait by themselves). The host reports when it is mounted;
 * `whenModalsHostMounted` lets a caller wait for that.
 */
let reportMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  reportMounted = resolve;
});

export function modalsHostMounted(): void {
  reportMounted();
}

export function whenModalsHostMounted(): Promise<void> {
  return mounted;
}
