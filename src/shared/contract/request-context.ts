import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { Id } from './ids.ts';

/*
 * Extension (under /api only, every version): what an approver should know of an authorization request beside what
 * the phone says of itself. The seed's answers for requests are left as they are; this is asked for separately.
 */

/** Up to this many requests' contexts in one call: a page of the queue. */
export const REQUEST_CONTEXT_BATCH_MAX = 100;

/** `?ids=1,2,3`: the requests whose context is wanted, comma-separated. */
export const RequestContextQuery = deferred(() =>
  z.object({
    ids: z.pipe(
      z.pipe(
        z
          .string()
          .check(z.regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, 'ids must be 1 to 100 request Ids, comma-separated')),
        z.transform((value: string) => [...new Set(value.split(',').map(Number))]),
      ),
      z.array(Id),
    ),
  }),
);

/**
 * How the request came: from an enrolment link (issued by whom, for whom, when), from its person signed in at /device
 * (with a password or single sign-on), or not recorded (made before this was kept, or by the demo console).
 */
export const RequestOrigin = deferred(() =>
  z.object({
    Kind: z.enum(['Link', 'SignedIn', 'NotRecorded']),
    /** For SignedIn: how the person signed in on the phone. */
    SignInMethod: z.nullable(z.enum(['Password', 'SingleSignOn'])),
    /** For Link: who made the link (the person themselves, or the helpdesk), for whom, and when. */
    LinkIssuedBy: z.nullable(z.string()),
    LinkIssuedFor: z.nullable(z.string()),
    LinkIssuedTimestampUtc: z.nullable(z.string()),
    /** Where the enrolment came from: its address and browser (User-Agent). */
    ClientAddress: z.nullable(z.string()),
    UserAgent: z.nullable(z.string()),
  }),
);
export type RequestOrigin = z.infer<typeof RequestOrigin>;

/** Another device of the same person: registered (Active or Disabled) or still waiting for a decision. */
export const OtherDevice = deferred(() =>
  z.object({
    State: z.enum(['Active', 'Disabled', 'Waiting']),
    /** Its push user once registered; its request while waiting. */
    PushMessageUserId: z.nullable(Id),
    AuthorizationRequestId: z.nullable(Id),
    DeviceType: z.string(),
    Manufacturer: z.nullable(z.string()),
    Model: z.nullable(z.string()),
    /** When its credential was last used; null when never, or not an enrolled device. */
    LastSeenTimestampUtc: z.nullable(z.string()),
  }),
);
export type OtherDevice = z.infer<typeof OtherDevice>;

export const ContextHintKind = deferred(() =>
  z.enum([
    'FirstDevice',
    'HasActiveDevice',
    'NewAddress',
    'LinkIssuedByYou',
    'LinkIssuedByOther',
    'HoldsAccountsPermissions',
    'OpenReports',
  ]),
);
export type ContextHintKind = z.infer<typeof ContextHintKind>;

/** A fact worth a second look, in plain words ("first device for Jane"). */
export const ContextHint = deferred(() => z.object({ Kind: ContextHintKind, Text: z.string() }));
export type ContextHint = z.infer<typeof ContextHint>;

export const RequestContext = deferred(() =>
  z.object({
    AuthorizationRequestId: Id,
    UserName: z.string(),
    Origin: RequestOrigin,
    OtherDevices: z.array(OtherDevice),
    /** "This wasn't me" reports of the person nobody has marked handled. */
    OpenReports: z.int().check(z.minimum(0)),
    Hints: z.array(ContextHint),
  }),
);
export type RequestContext = z.infer<typeof RequestContext>;
export const RequestContextList = deferred(() => z.array(RequestContext));
export type RequestContextList = z.infer<typeof RequestContextList>;
