import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { deferred } from '../../../shared/contract/index.ts';
import { signInMethodQueries } from '../../api/queries/sign-in-method-queries.ts';
import { SignInMethodsPage } from '../../features/sign-in-methods/sign-in-methods-page.tsx';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';

/** `?redirect=` where a person who had to add a second factor goes on to once they did. */
export const Route = createFileRoute('/_app/sign-in-methods')({
  validateSearch: deferred(() => z.object({ redirect: z.catch(z.optional(z.string()), undefined) })),
  loader: ({ context }) => prefetchIfAllowed(context, signInMethodQueries.own()),
  component: SignInMethodsRoute,
});

function SignInMethodsRoute() {
  const { redirect } = Route.useSearch();
  return <SignInMethodsPage redirectTo={redirect} />;
}
