import { en } from 'zod/locales';
import { z } from 'zod/mini';

/**
 * English validation messages ("Too small: expected string to have >=1 characters" and the like), as classic zod
 * registered by itself. Without them every issue reads "Invalid input". A side-effect module: the service imports
 * it with its validator, before it answers anything; the dashboard loads it on its own, next to its first
 * screen, since its messages only show once something was typed or answered wrongly (the locale is ~1 KB gzip).
 */
z.config(en());
