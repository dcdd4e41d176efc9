import { createFileRoute } from '@tanstack/react-router';
import { IdParam } from '../../../../shared/contract/index.ts';
import { pushUserQueries } from '../../../api/queries/queries.ts';
import { PushUserDetailPage } from '../../../features/push-users/push-user-detail-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';
import { parsedOrNotFound } from '../../../wiring/route-params.ts';

export const Route = createFileRoute('/_app/push-users/$id')({
  // An address whose id cannot be one (`abc`, `-1`) names nothing: the not-found page, inside the app's frame.
  params: { parse: (raw) => parsedOrNotFound(IdParam.safeParse(raw)), stringify: ({ id }) => ({ id: String(id) }) },
  loader: ({ context, params }) => prefetchIfAllowed(context, pushUserQueries.detail(params.id)),
  component: PushUserDetailPage,
});
