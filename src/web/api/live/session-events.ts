import type { ApiError } from '../core/api-error.ts';

const unauthorizedListeners = new Set<(error: ApiError) => void>();

/** The app reacts to a lost session (sign-in page, then back) without the client knowing about routing. */
export function onUnauthorized(listener: (error: ApiError) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Ends the session here as a 401 would (the deadline passed with no answer to tell, or the server said 401). */
export function reportSessionEnded(error: ApiError): void {
  for (const listener of unauthorizedListeners) listener(error);
}
