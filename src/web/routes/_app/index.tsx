import { createFileRoute } from '@tanstack/react-router';
import { endpoints } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/account-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries.ts';
import { OverviewPage } from '../../features/overview/overview-page.tsx';
import { PAGES } from '../../lib/pages.tsx';
import { prefetchIfAllowed } from '../../lib/prefetch.ts';

export const Route = createFileRoute('/_app/')({
  loader: ({ context }) =>
    Promise.all([
      prefetchIfAllowed(context, PAGES.authorizationRequests.endpoint, (queryClient) =>
        Promise.all([
          queryClient.ensureQueryData(authorizationRequestQueries.list({ view: 'pending' })),
          queryClient.ensureQueryData(authorizationRequestQueries.list({ view: 'all' })),
        ]),
      ),
      prefetchIfAllowed(context, PAGES.pushUsers.endpoint, (queryClient) =>
        queryClient.ensureQueryData(pushUserQueries.list()),
      ),
      prefetchIfAllowed(context, endpoints.reportedCodes, (queryClient) =>
        queryClient.ensureQueryData(accountQueries.reportedCodes()),
      ),
    ]),
  component: OverviewPage,
});
