/** Asks for the command palette from anywhere (the header's Find button): the host loads it if need be and opens it. */
const listeners = new Set<() => void>();

export function openPalette(): void {
  for (const listener of listeners) listener();
}

export function onOpenPalette(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
