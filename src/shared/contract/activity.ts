import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

/*
 * Extension (under /api only, every version): the security events the audit stream carries, also kept in the
 * database and read newest first, a page at a time (keyset: `before` is the previous page's `Next`).
 */

/**
 * Who may read an action's events beside the audit stream (the Activity page, a person's page, an account's drawer):
 * `security`, anyone with Read on Security; `accounts`, only those who also hold Read on Accounts, as for the account
 * itself: sign-ins, second factors and step-ups, accounts and API accounts, and what stands in for or shuts out a
 * person's phones (temporary codes, their devices disabled). The service filters by it; the dashboard says what it
 * leaves out.
 */
export type ActivityReaders = 'security' | 'accounts';

/**
 * Every action an event may have, as `Action` and the `action` filter name it (a newer server may add some), each
 * with who may read its events: a new action cannot be added without saying.
 */
export const ACTIVITY_READERS = {
  'sign-in': 'accounts',
  'sign-out': 'accounts',
  'session-ended': 'accounts',
  'authorization-decided': 'security',
  'push-user-status-changed': 'security',
  'account-created': 'accounts',
  'account-changed': 'accounts',
  'account-disabled': 'accounts',
  'account-password-reset': 'accounts',
  'api-account-created': 'accounts',
  'api-account-secret-rotated': 'accounts',
  'enrollment-link-created': 'security',
  'device-enrolled': 'security',
  'device-removed': 'security',
  'enrollment-link-issued': 'security',
  'code-reported': 'security',
  'device-reported': 'security',
  'code-report-handled': 'security',
  'instruction-created': 'security',
  'token-accepted': 'security',
  'token-refused': 'security',
  'backup-taken': 'security',
  'backup-restored': 'security',
  'demo-reset': 'security',
  'second-factor-added': 'accounts',
  'second-factor-removed': 'accounts',
  'second-factor-verified': 'accounts',
  'second-factor-failed': 'accounts',
  'recovery-code-used': 'accounts',
  'sign-in-methods-reset': 'accounts',
  'step-up': 'accounts',
  'devices-disabled': 'accounts',
  'temporary-code-issued': 'accounts',
  'temporary-code-revoked': 'accounts',
  'temporary-code-used': 'accounts',
  'alert-destination-created': 'security',
  'alert-destination-changed': 'security',
  'alert-destination-removed': 'security',
  'alert-secret-rotated': 'security',
  'alert-sent': 'security',
} as const satisfies Record<string, ActivityReaders>;
export type ActivityAction = keyof typeof ACTIVITY_READERS;
export const ACTIVITY_ACTIONS = Object.keys(ACTIVITY_READERS) as readonly ActivityAction[];

export const ACTIVITY_PAGE_MAX = 200;
export const ACTIVITY_PAGE_DEFAULT = 50;

/** What an event was about, as a filter names it: `AuthorizationRequest:12`, `PushMessageUser:3`, `Account:5`. */
export const ACTIVITY_TARGET_PATTERN =
  /^(AuthorizationRequest|PushMessageUser|Account|Device|Instruction|Session|Database):[^\s:]{1,64}$/;

/** A time bound: a day (`2026-11-27`) or a moment (`2026-11-27T15:04:05Z`, seconds and fraction optional), UTC. */
const TIME_BOUND = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z?)?$/;

/** A page's end: the last event's time and Id, as `Next` gave it. */
export const ACTIVITY_CURSOR_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}_\d{1,15}$/;

const Filter = (max: number, name: string) =>
  z.optional(z.string().check(z.trim(), z.minLength(1, `${name} must not be empty`), z.maxLength(max)));

export const ActivityQuery = deferred(() =>
  z.object({
    /** Who acted (a user name, any case). */
    actor: Filter(256, 'actor'),
    /** Whom it concerns (a user name, any case). */
    person: Filter(256, 'person'),
    target: z.optional(
      z
        .string()
        .check(
          z.regex(
            ACTIVITY_TARGET_PATTERN,
            'target must be a Type:Id such as AuthorizationRequest:12, PushMessageUser:3 or Account:5',
          ),
        ),
    ),
    /** One action, or several comma-separated (sign-in,step-up). */
    action: z.optional(
      z.string().check(z.regex(/^[a-z-]{1,40}(,[a-z-]{1,40}){0,39}$/, 'action must be action names, comma-separated')),
    ),
    outcome: z.optional(z.enum(['success', 'failure'])),
    from: z.optional(
      z.string().check(z.regex(TIME_BOUND, 'from must be a UTC day or time, 2026-11-27 or 2026-11-27T15:04Z')),
    ),
    to: z.optional(
      z.string().check(z.regex(TIME_BOUND, 'to must be a UTC day or time, 2026-11-27 or 2026-11-27T15:04Z')),
    ),
    /** Free text: found in the actor, the person, the target, the address, the reason and the details. */
    q: Filter(200, 'q'),
    before: z.optional(
      z.string().check(z.regex(ACTIVITY_CURSOR_PATTERN, 'before must be a Next value of a previous page')),
    ),
    limit: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d{1,3}$/, `limit must be 1 to ${ACTIVITY_PAGE_MAX}`)),
        z.pipe(z.transform(Number), z.int().check(z.minimum(1), z.maximum(ACTIVITY_PAGE_MAX))),
      ),
    ),
  }),
);
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** Events one CSV export holds at most: past it, the export is refused and the filter asked to be narrowed. */
export const ACTIVITY_EXPORT_MAX = 100_000;

/** An export's filter: the page's, without its paging (every matching event, newest first). */
export const ActivityExportQuery = deferred(() => z.omit(ActivityQuery, { before: true, limit: true }));
export type ActivityExportQuery = z.infer<typeof ActivityExportQuery>;

export const ActivityEvent = deferred(() =>
  z.object({
    Id: z.int(),
    TimestampUtc: z.string(),
    Action: z.string(),
    Outcome: z.enum(['success', 'failure']),
    Reason: z.nullable(z.string()),
    Actor: z.nullable(z.string()),
    /** Whom it concerns: the person of the request, push user or account acted on (or the actor, for their own). */
    Person: z.nullable(z.string()),
    TargetType: z.nullable(z.string()),
    TargetId: z.nullable(z.string()),
    SourceIp: z.nullable(z.string()),
    UserAgent: z.nullable(z.string()),
    Details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  }),
);
export type ActivityEvent = z.infer<typeof ActivityEvent>;

export const ActivityPage = deferred(() =>
  z.object({
    Events: z.array(ActivityEvent),
    /** Pass as `before` for the next (older) page; null at the end. */
    Next: z.nullable(z.string()),
  }),
);
export type ActivityPage = z.infer<typeof ActivityPage>;
