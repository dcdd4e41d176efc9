import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { QUEUE_SEARCH_DEFAULTS, QueueSearch } from '../../../features/authorization-requests/queue/queue-search.ts';
import { RequestQueuePage } from '../../../features/authorization-requests/queue/request-queue-page.tsx';
import { loadRequestQueue } from '../../../wiring/first-request.ts';

export const Route = createFileRoute('/_app/authorization-requests/')({
  validateSearch: QueueSearch,
  search: { middlewares: [stripSearchParams(QUEUE_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ view: search.view }),
  loader: ({ context, deps }) => loadRequestQueue(context, deps.view),
  component: RequestQueuePage,
});
