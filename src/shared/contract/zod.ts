import { en } from 'zod/locales';
import { z } from 'zod/mini';

/**
 * The contract is written with `zod/mini`: the same validation core as classic zod, but tree-shakable, so the
 * dashboard downloads only the parts its schemas use (classic zod is ~25 KB gzip whatever one uses).
 * Unlike classic zod, mini registers no error messages: without a locale every issue would read "Invalid input".
 * English is registered here, where every schema is built, so the service and the dashboard keep answering
 * "Too small: expected string to have >=1 characters" and the like.
 */
z.config(en());

export { z };
