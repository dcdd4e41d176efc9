import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { pushUserQueries } from '../../../api/queries/queries.ts';
import { PUSH_USER_SEARCH_DEFAULTS, PushUserSearch } from '../../../features/push-users/list/push-user-search.ts';
import { PushUsersPage } from '../../../features/push-users/list/push-users-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/push-users/')({
  validateSearch: PushUserSearch,
  search: { middlewares: [stripSearchParams(PUSH_USER_SEARCH_DEFAULTS)] },
  loader: ({ context }) => prefetchIfAllowed(context, pushUserQueries.list()),
  component: PushUsersPage,
});
