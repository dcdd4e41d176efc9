import { createFileRoute } from '@tanstack/react-router';
import { accountQueries } from '../../api/account-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries.ts';
import { OverviewPage } from '../../features/overview/overview-page.tsx';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/')({
  loader: ({ context }) =>
    prefetchIfAllowed(
      context,
      authorizationRequestQueries.list({ view: 'pending' }),
      authorizationRequestQueries.list({ view: 'all' }),
      pushUserQueries.list(),
      accountQueries.reportedCodes(),
    ),
  component: OverviewPage,
});
