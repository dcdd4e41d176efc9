type Listener = (message: string) => void;

const listeners = new Set<Listener>();

/**
 * Says something to screen-reader users without moving focus: what changed on the page without a navigation
 * (new requests arrived, a request decided by someone else). The live region (components/live-region.tsx)
 * speaks it politely, after what the person is already hearing. A toast already speaks for itself (role alert).
 */
export function announce(message: string): void {
  for (const listener of listeners) listener(message);
}

export function onAnnouncement(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
