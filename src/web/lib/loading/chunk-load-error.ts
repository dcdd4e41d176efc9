/**
 * A part of the dashboard's code that did not arrive: a dynamic import refused by the browser. Chromium, Firefox and
 * Safari each word it their own way; Vite's preload helper words a stylesheet's failure.
 */
const CHUNK_LOAD_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_FAILURE.test(error.message);
}

/**
 * The file a failed dynamic import named (Chromium and Firefox name it; Safari does not), without a query. The browser
 * remembers a module whose file failed under its URL, so asking for the same URL again fails again: a retry asks
 * for it under a query of its own.
 */
export function chunkUrlOf(error: unknown): string | null {
  return error instanceof Error ? (/(https?:\/\/[^\s?#]+\.m?js)/.exec(error.message)?.[1] ?? null) : null;
}

/** Why a part did not arrive: the server answers (so it serves a newer version, without that file) or it does not. */
export type ChunkLoadFailure = 'new-version' | 'unreachable';

/** Asks the server whether it is there, past any cache: the version endpoint is anonymous and small. */
export async function chunkLoadFailure(): Promise<ChunkLoadFailure> {
  try {
    const response = await fetch('/api/Consumer/Version', { cache: 'no-store' });
    return response.ok ? 'new-version' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}
