import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { deferred } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { AccountsPage } from '../../features/accounts/accounts-page.tsx';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';

/**
 * `?q=` filters by name; `?account=7` opens that account's sign-in activity (a link to share); `?create=true` opens
 * the create dialog (the command palette's "Create an account").
 */
const AccountsSearch = deferred(() =>
  z.object({
    q: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
    account: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
    create: z.catch(z.optional(z.boolean()), undefined),
  }),
);

export const Route = createFileRoute('/_app/accounts')({
  validateSearch: AccountsSearch,
  loader: ({ context }) => prefetchIfAllowed(context, accountQueries.list()),
  component: AccountsPage,
});
