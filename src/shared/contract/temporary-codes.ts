import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { Id } from './ids.ts';

/*
 * Temporary codes: what the helpdesk gives a person whose phone is out of reach (Duo's bypass codes, Okta's temporary
 * access code, Entra's Temporary Access Pass). Random, shown once, stored as a password hash; accepted in place of a
 * pushed code for that person's instructions and as the second step of their sign-in; never a step-up proof.
 */

export const TEMPORARY_CODE_DIGITS = 12;
export const TEMPORARY_CODE_MINUTES = { min: 10, max: 480, default: 60 } as const;
export const TEMPORARY_CODE_USES = { min: 1, max: 10, default: 1 } as const;

export const TemporaryCodeRequest = deferred(() =>
  z.object({
    /** How long it works, in minutes: 10 minutes to 8 hours (one hour when left out). */
    ValidMinutes: z._default(
      z
        .int('ValidMinutes must be a whole number of minutes')
        .check(
          z.minimum(TEMPORARY_CODE_MINUTES.min, `ValidMinutes must be at least ${TEMPORARY_CODE_MINUTES.min}`),
          z.maximum(TEMPORARY_CODE_MINUTES.max, `ValidMinutes must be at most ${TEMPORARY_CODE_MINUTES.max} (8 hours)`),
        ),
      TEMPORARY_CODE_MINUTES.default,
    ),
    /** How many times it may be used: once (when left out) up to 10. */
    Uses: z._default(
      z
        .int('Uses must be a whole number')
        .check(
          z.minimum(TEMPORARY_CODE_USES.min, `Uses must be at least ${TEMPORARY_CODE_USES.min}`),
          z.maximum(TEMPORARY_CODE_USES.max, `Uses must be at most ${TEMPORARY_CODE_USES.max}`),
        ),
      TEMPORARY_CODE_USES.default,
    ),
  }),
);
export type TemporaryCodeRequest = z.infer<typeof TemporaryCodeRequest>;

export const TemporaryCodeState = deferred(() => z.enum(['Valid', 'UsedUp', 'Expired', 'Revoked']));
export type TemporaryCodeState = z.infer<typeof TemporaryCodeState>;

/** One use: for an instruction's token or as a sign-in's second step, when and from where. */
export const TemporaryCodeUse = deferred(() =>
  z.object({
    UsedUtc: z.string(),
    Purpose: z.enum(['Instruction', 'SignIn']),
    ClientAddress: z.nullable(z.string()),
  }),
);
export type TemporaryCodeUse = z.infer<typeof TemporaryCodeUse>;

/** A temporary code as the person page shows it: never the code. */
export const TemporaryCode = deferred(() =>
  z.object({
    Id,
    IssuedBy: z.string(),
    IssuedUtc: z.string(),
    ExpiresUtc: z.string(),
    UsesAllowed: z.int().check(z.minimum(1)),
    State: TemporaryCodeState,
    RevokedBy: z.nullable(z.string()),
    RevokedUtc: z.nullable(z.string()),
    Uses: z.array(TemporaryCodeUse),
  }),
);
export type TemporaryCode = z.infer<typeof TemporaryCode>;

/** The code as issued: `Code` is shown this once. */
export const IssuedTemporaryCode = deferred(() => z.extend(TemporaryCode, { Code: z.string() }));
export type IssuedTemporaryCode = z.infer<typeof IssuedTemporaryCode>;
