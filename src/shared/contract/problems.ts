import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

/** RFC 9457 problem details, as every error of this service is answered. */
export const Problem = deferred(() =>
  z.object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.optional(z.string()),
    errors: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    supportedVersions: z.optional(z.array(z.string())),
    availableIn: z.optional(z.array(z.string())),
    /** 403: the permission that is missing. */
    entity: z.optional(z.string()),
    permission: z.optional(z.string()),
    /** 422 invalid-token: wrong tokens left before the instruction locks. */
    attemptsLeft: z.optional(z.int()),
    /** 409 already-decided: who decided, and how. */
    decidedBy: z.optional(z.nullable(z.string())),
    outcome: z.optional(z.string()),
    /** 409 external-database: the command that backs the database up instead (never with a password in it). */
    command: z.optional(z.string()),
    /** 401 second-factor-required: the single-use ticket the second step takes, until when, and the methods it may use. */
    ticket: z.optional(z.string()),
    ticketExpiresUtc: z.optional(z.string()),
    methods: z.optional(z.array(z.string())),
    /** The detail again, and the problem kind: the members the published SDK reads from an error (SPEC §3). */
    Message: z.optional(z.string()),
    ErrorCode: z.optional(z.string()),
  }),
);
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The kinds of problem the service answers; clients switch on these, not on wording. */
export const PROBLEM_KINDS = [
  'validation',
  'malformed-request',
  'unsupported-media-type',
  'payload-too-large',
  'unsupported-version',
  'version-conflict',
  'unavailable-in-version',
  'not-found',
  'misdirected-request',
  'unauthenticated',
  'invalid-credentials',
  'forbidden',
  'cross-site-request',
  'https-required',
  'not-creator',
  'already-decided',
  'request-guid-mismatch',
  'already-authenticated',
  'invalid-token',
  'token-expired',
  'instruction-locked',
  'token-reissue-limit',
  'no-active-device',
  'instruction-reported',
  'device-ended',
  'device-disabled',
  'device-not-approved',
  'enrollment-code-invalid',
  'push-endpoint-refused',
  'too-many-requests',
  'service-unavailable',
  'directory-unavailable',
  'account-exists',
  'no-account',
  'account-disabled',
  'directory-account',
  'single-sign-on-account',
  'single-sign-on-code-invalid',
  'wrong-password',
  /** A person's operation (a chosen password) asked of an API account, whose secret the service generates. */
  'api-account',
  /** Rotate secret asked of a person's account. */
  'not-api-account',
  /** An API account's secret used in a browser: API accounts are for scripts and the SDK, never the dashboard. */
  'api-account-in-browser',
  'external-database',
  'second-factor-required',
  'second-factor-enrolment-required',
  'step-up-required',
  'passkey-refused',
  'passkeys-unavailable',
  'ticket-invalid',
  'recovery-code-invalid',
  'device-code-invalid',
  'device-code-expired',
  /** A temporary code that is wrong, expired, used up or revoked (none is told apart). */
  'temporary-code-invalid',
  /** Step-up by device code when none of the person's devices may prove it in this session (see StepUpDevices). */
  'no-step-up-device',
  /** An API account asked to add a passkey: it signs in with its secret only. */
  'api-account-passkey',
  /** A device planted for someone holding Accounts permissions, by someone without Write on Accounts. */
  'accounts-write-required',
  'internal',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

const PROBLEM_TYPE_PREFIX = 'https://tachyon-consumer.dev/problems/';

export function problemType(kind: ProblemKind): string {
  return `${PROBLEM_TYPE_PREFIX}${kind}`;
}

/** The kind named by a problem's `type`, or null for problems from elsewhere (for example `about:blank`). */
export function problemKind(type: string): ProblemKind | null {
  if (!type.startsWith(PROBLEM_TYPE_PREFIX)) return null;
  const kind = type.slice(PROBLEM_TYPE_PREFIX.length);
  return (PROBLEM_KINDS as readonly string[]).includes(kind) ? (kind as ProblemKind) : null;
}
