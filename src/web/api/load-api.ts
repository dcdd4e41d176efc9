import type { ConsumerApi } from './instance.ts';

let loading: Promise<ConsumerApi> | undefined;

/**
 * The API client for code that runs before any signed-in page: the sign-in page, the session provider. The client
 * brings the whole interface catalogue (every endpoint's zod schemas, ~10 KB gzip), which the sign-in page does not
 * need to paint; it loads on the first call instead. Signed-in pages import `api` from instance.ts directly.
 */
export function loadApi(): Promise<ConsumerApi> {
  loading ??= import('./instance.ts').then((module) => module.api);
  return loading;
}
