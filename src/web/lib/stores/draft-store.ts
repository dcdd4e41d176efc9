/**
 * Text the person typed into a dialog, kept in this tab's sessionStorage until it is used, so that it survives
 * an expired session and the sign-in that follows. Keyed by user as well: another person signing in on the same
 * tab never sees it.
 */
const PREFIX = 'tachyon.draft.';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readDraft(key: string): string {
  try {
    return storage()?.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

export function writeDraft(key: string, text: string): void {
  try {
    if (text === '') storage()?.removeItem(PREFIX + key);
    else storage()?.setItem(PREFIX + key, text);
  } catch {
    // storage full or refused: the text stays in the dialog, only not past a sign-in
  }
}
