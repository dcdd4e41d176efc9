import { z } from 'zod/mini';

/**
 * The contract is written with `zod/mini`: the same validation core as classic zod, but tree-shakable, so the
 * dashboard downloads only the parts its schemas use (classic zod is ~25 KB gzip whatever one uses).
 * Unlike classic zod, mini registers no error messages: see messages.ts for who loads them, and when.
 */
export { z };
