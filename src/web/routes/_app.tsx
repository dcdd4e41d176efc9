import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from '../components/app-shell/app-layout.tsx';

export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
    if (!context.session()) throw redirect({ to: '/login', search: { redirect: location.href } });
  },
  component: AppRoute,
});

function AppRoute() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
