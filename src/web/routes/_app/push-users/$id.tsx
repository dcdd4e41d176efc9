import { createFileRoute } from '@tanstack/react-router';
import { IdParam } from '../../../../shared/contract/index.ts';
import { pushUserQueries } from '../../../api/queries.ts';
import { PushUserDetailPage } from '../../../features/push-users/push-user-detail-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/push-users/$id')({
  params: { parse: (raw) => IdParam.parse(raw), stringify: ({ id }) => ({ id: String(id) }) },
  loader: ({ context, params }) => prefetchIfAllowed(context, pushUserQueries.detail(params.id)),
  component: PushUserDetailPage,
});
