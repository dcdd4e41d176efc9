import { createFileRoute } from '@tanstack/react-router';
import { endpoints } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries.ts';
import { OverviewPage } from '../../features/overview/overview-page.tsx';
import { prefetchIfAllowed } from '../../lib/prefetch.ts';

export const Route = createFileRoute('/_app/')({
  loader: ({ context }) =>
    Promise.all([
      prefetchIfAllowed(context, endpoints.listAuthorizationRequests, (queryClient) =>
        Promise.all([
          queryClient.ensureQueryData(authorizationRequestQueries.list({ view: 'pending' })),
          queryClient.ensureQueryData(authorizationRequestQueries.list({ view: 'all' })),
        ]),
      ),
      prefetchIfAllowed(context, endpoints.listPushMessageUsers, (queryClient) =>
        queryClient.ensureQueryData(pushUserQueries.list()),
      ),
    ]),
  component: OverviewPage,
});
