import { authorizationRequestQueries, type RequestView } from '../api/queries/queries.ts';
import type { RouterContext } from '../session/router-context.ts';
import { prefetchIfAllowed } from './prefetch.ts';

/** The queue route's loader: the view shown, and the pending list (the count in the view switch). */
export function loadRequestQueue(context: RouterContext, view: RequestView): Promise<void> {
  return prefetchIfAllowed(
    context,
    authorizationRequestQueries.list({ view }),
    authorizationRequestQueries.list({ view: 'pending' }),
  );
}

/** What startFirstRequest needs of the router: the opened page's route and its search, validated (defaults filled in). */
export interface FirstMatch {
  routeId: string;
  search: unknown;
}

/**
 * Starts the opened page's request as soon as this module (the loaders chunk, with the API client) has run. The
 * router runs the route's loader only once the signed-in layout's code has been evaluated as well, a long wait on a
 * slow CPU; the loader then finds the same query under way. Only the queue, whose first load has a budget.
 */
export function startFirstRequest(context: RouterContext, match: FirstMatch | undefined): void {
  if (match?.routeId !== '/_app/authorization-requests/') return;
  void loadRequestQueue(context, (match.search as { view: RequestView }).view);
}
