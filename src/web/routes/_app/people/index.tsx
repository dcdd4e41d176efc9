import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { peopleQueries } from '../../../api/queries/people-queries.ts';
import { PeoplePage } from '../../../features/people/list/people-page.tsx';
import { PEOPLE_SEARCH_DEFAULTS, PeopleSearch } from '../../../features/people/list/people-search.ts';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/people/')({
  validateSearch: PeopleSearch,
  search: { middlewares: [stripSearchParams(PEOPLE_SEARCH_DEFAULTS)] },
  loader: ({ context }) => prefetchIfAllowed(context, peopleQueries.list()),
  component: PeoplePage,
});
