import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { authorizationRequestQueries } from '../../../api/queries.ts';
import { QUEUE_SEARCH_DEFAULTS, QueueSearch } from '../../../features/authorization-requests/queue-search.ts';
import { RequestQueuePage } from '../../../features/authorization-requests/request-queue-page.tsx';
import { PAGES } from '../../../lib/pages.tsx';
import { prefetchIfAllowed } from '../../../lib/prefetch.ts';

export const Route = createFileRoute('/_app/authorization-requests/')({
  validateSearch: QueueSearch,
  search: { middlewares: [stripSearchParams(QUEUE_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ view: search.view }),
  loader: ({ context, deps }) =>
    prefetchIfAllowed(context, PAGES.authorizationRequests.endpoint, (queryClient) =>
      Promise.all([
        queryClient.ensureQueryData(authorizationRequestQueries.list({ view: deps.view })),
        queryClient.ensureQueryData(authorizationRequestQueries.list({ view: 'pending' })),
      ]),
    ),
  component: RequestQueuePage,
});
