let loading: Promise<typeof import('./instance.ts')> | undefined;

/**
 * The API client and the endpoint catalogue for code that runs before any signed-in page: the sign-in page, the
 * session provider. The catalogue brings every endpoint's zod schemas (~10 KB gzip), which the sign-in page does not
 * need to paint; they load on the first call instead. Signed-in pages import from instance.ts directly.
 */
export function loadApi(): Promise<typeof import('./instance.ts')> {
  loading ??= import('./instance.ts');
  return loading;
}
