import { createFileRoute } from '@tanstack/react-router';
import { peopleQueries } from '../../../api/queries/people-queries.ts';
import { PersonPage, PersonPending } from '../../../features/people/person-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/people/$userName')({
  loader: ({ context, params }) => prefetchIfAllowed(context, peopleQueries.detail(params.userName)),
  component: PersonPage,
  pendingComponent: PersonPending,
});
