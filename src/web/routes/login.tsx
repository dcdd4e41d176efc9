import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { safeRedirect } from '../../shared/safe-redirect.ts';
import { LoginPage } from '../features/login/login-page.tsx';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({
    redirect: z.catch(z.optional(z.string()), undefined),
    // The one-time code single sign-on hands the page (exchanged at once for the session).
    sso: z.catch(z.optional(z.string()), undefined),
  }),
  beforeLoad: ({ context, search }) => {
    if (context.session()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect: target, sso } = Route.useSearch();
  return (
    <LoginPage
      redirectTo={target === undefined ? undefined : safeRedirect(target)}
      {...(sso ? { handoverCode: sso } : {})}
    />
  );
}
