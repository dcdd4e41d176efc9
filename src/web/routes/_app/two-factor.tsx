import { createFileRoute } from '@tanstack/react-router';
import { TwoFactorPage } from '../../features/two-factor/two-factor-page.tsx';

export const Route = createFileRoute('/_app/two-factor')({
  component: TwoFactorPage,
});
