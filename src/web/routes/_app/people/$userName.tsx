import { createFileRoute } from '@tanstack/react-router';
import { activityQueries } from '../../../api/queries/activity-queries.ts';
import { peopleQueries } from '../../../api/queries/people-queries.ts';
import { PersonPage, PersonPending } from '../../../features/people/person-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/people/$userName')({
  loader: ({ context, params }) => {
    // Their newest events, lower on the page, are asked for with them but not waited for: answered in time, they are
    // in the first render; otherwise they render when they come, as before, and the page is not held for them.
    void prefetchIfAllowed(context, activityQueries.slice({ person: params.userName }));
    return prefetchIfAllowed(context, peopleQueries.detail(params.userName));
  },
  component: PersonPage,
  pendingComponent: PersonPending,
});
