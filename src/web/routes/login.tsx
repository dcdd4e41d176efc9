import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { deferred, SINGLE_SIGN_ON_REFUSAL_CODES } from '../../shared/contract/index.ts';
import { safeRedirect } from '../../shared/safe-redirect.ts';
import { LoginPage } from '../features/login/login-page.tsx';

export const Route = createFileRoute('/login')({
  validateSearch: deferred(() =>
    z.object({
      redirect: z.catch(z.optional(z.string()), undefined),
      // The one-time code single sign-on hands the page (exchanged at once for the session).
      sso: z.catch(z.optional(z.string()), undefined),
      // Why single sign-on was refused: one of the known codes, or nothing (the page shows only their fixed words).
      sso_error: z.catch(z.optional(z.enum(SINGLE_SIGN_ON_REFUSAL_CODES)), undefined),
    }),
  ),
  beforeLoad: ({ context, search }) => {
    if (context.session()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect: target, sso, sso_error: refusal } = Route.useSearch();
  return (
    <LoginPage
      redirectTo={target === undefined ? undefined : safeRedirect(target)}
      {...(sso ? { handoverCode: sso } : {})}
      {...(refusal ? { singleSignOnRefusal: refusal } : {})}
    />
  );
}
