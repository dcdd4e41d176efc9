import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from '../shell/app-layout.tsx';
import { prefetchServerVersion } from '../wiring/prefetch.ts';

export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
    const session = context.session();
    if (!session) throw redirect({ to: '/login', search: { redirect: location.href } });
    // A session that may only add a second factor goes to where one is added, and on from there once it is.
    if (session.enrolmentRequired && location.pathname !== '/sign-in-methods') {
      throw redirect({ to: '/sign-in-methods', search: { redirect: location.href } });
    }
  },
  // Beside the page's own loader: what the header and the navigation read.
  loader: ({ context }) => prefetchServerVersion(context),
  component: AppRoute,
});

function AppRoute() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
