import { notFound } from '@tanstack/react-router';

/** A path parameter that does not parse names nothing: the router shows its not-found page, not an error. */
export function parsedOrNotFound<T>(result: { success: true; data: T } | { success: false }): T {
  if (!result.success) throw notFound();
  return result.data;
}
