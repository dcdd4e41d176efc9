import { createFileRoute } from '@tanstack/react-router';
import { alertQueries } from '../api/queries/alert-queries.ts';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { prefetchIfAllowed, prefetchServerVersion } from '../wiring/prefetch.ts';

export const Route = createFileRoute('/settings')({
  // Signed in, the alert destinations' request starts with the page's code, not after its first render (it is
  // skipped signed out, and for a person who may not list them), beside the server's versions the page offers.
  loader: ({ context }) =>
    Promise.all([prefetchIfAllowed(context, alertQueries.destinations()), prefetchServerVersion(context)]),
  component: SettingsPage,
});
