import type { AuthorizationRequest } from '../../../shared/contract/index.ts';

/** "Decided" stands in when a server lacks the Status extension: we know it left the queue, not how. */
export type RequestDisplayStatus = 'Pending' | 'Authorized' | 'Rejected' | 'Decided';

/**
 * The status to show. Servers with SPEC §3's extensions say it; for others, pending means "in the getall=false list".
 * Returns null when neither is known yet.
 */
export function requestStatus(
  request: AuthorizationRequest,
  pendingIds: ReadonlySet<number> | undefined,
): RequestDisplayStatus | null {
  if (request.Status) return request.Status;
  if (!pendingIds) return null;
  return pendingIds.has(request.Id) ? 'Pending' : 'Decided';
}
