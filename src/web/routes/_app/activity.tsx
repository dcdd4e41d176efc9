import { createFileRoute } from '@tanstack/react-router';
import { activityQueries } from '../../api/queries/activity-queries.ts';
import { ActivityPage } from '../../features/activity/activity-page.tsx';
import { ActivitySearch } from '../../features/activity/activity-search.ts';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/activity')({
  validateSearch: ActivitySearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchIfAllowed(context, activityQueries.page(deps)),
  component: ActivityPage,
});
