import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { deferred } from '../../../shared/contract/index.ts';
import { TwoFactorPage } from '../../features/two-factor/two-factor-page.tsx';

/** `?kind=scheduled&id=42` opens the form for that instruction (the demo inbox links here); the token is typed. */
const TwoFactorSearch = deferred(() =>
  z.object({
    kind: z.catch(z.optional(z.enum(['instruction', 'scheduled'])), undefined),
    id: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  }),
);

export const Route = createFileRoute('/_app/two-factor')({
  validateSearch: TwoFactorSearch,
  component: TwoFactorPage,
});
