/**
 * A machine word as words: `invalid-credentials` reads "invalid credentials". The dashboard shows codes so, and the
 * service keeps this form in an event's searchable text, so a search for what is on screen finds it.
 */
export const inWords = (code: string) => code.replace(/[-_]+/g, ' ');
