import { createFileRoute } from '@tanstack/react-router';
import { IdParam } from '../../../../shared/contract/index.ts';
import { authorizationRequestQueries } from '../../../api/queries.ts';
import { RequestDetailPage } from '../../../features/authorization-requests/request-detail-page.tsx';
import { prefetchIfAllowed } from '../../../wiring/prefetch.ts';

export const Route = createFileRoute('/_app/authorization-requests/$id')({
  params: { parse: (raw) => IdParam.parse(raw), stringify: ({ id }) => ({ id: String(id) }) },
  loader: ({ context, params }) => prefetchIfAllowed(context, authorizationRequestQueries.detail(params.id)),
  component: RequestDetailPage,
});
