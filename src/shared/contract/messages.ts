import { en } from 'zod/locales';
import { z } from 'zod/mini';

/**
 * English validation messages ("Too small: expected string to have >=1 characters" and the like), as classic zod
 * registered by itself. Without them every issue reads "Invalid input". A side-effect module: the service imports
 * it with its validator, before it answers anything; the dashboard loads it right after its first screen, since
 * its messages only show once something was typed or answered wrongly (and the locale is ~1 KB gzip of the entry).
 */
z.config(en());
