import { createFileRoute, redirect } from '@tanstack/react-router';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries/queries.ts';
import { OverviewPage } from '../../features/overview/overview-page.tsx';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/')({
  // Someone the overview does not open for (no Security and no Accounts permission) lands where they can work.
  // The page list is imported here rather than at the top: this part of a route file is in every page's entry (the
  // sign-in page's too), and the list brings the API client and the endpoint catalogue with it.
  beforeLoad: async ({ context }) => {
    const { landingPage, PAGES, pageOpensFor } = await import('../../wiring/pages.tsx');
    const session = context.session();
    if (!pageOpensFor(PAGES.overview, session)) throw redirect({ to: landingPage(session, false), replace: true });
  },
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
