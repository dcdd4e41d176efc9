import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { TwoFactorPage } from '../../features/two-factor/two-factor-page.tsx';

/** `?kind=scheduled&id=42` opens the form for that instruction (the demo inbox links here); the token is typed. */
const TwoFactorSearch = z.object({
  kind: z.enum(['instruction', 'scheduled']).optional().catch(undefined),
  id: z.coerce.number().int().positive().optional().catch(undefined),
});

export const Route = createFileRoute('/_app/two-factor')({
  validateSearch: TwoFactorSearch,
  component: TwoFactorPage,
});
