import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { Id } from './ids.ts';
import { PermissionGrant } from './permissions.ts';
import { TIMESTAMP_PATTERN } from './timestamps.ts';

// Ids and permissions are modules of their own (the dashboard's first screen needs them without the resources);
// re-exported here so that the contract's exported schemas stay named in one place (openapi.ts).
export { ID_MAX, Id, IdParam, IdText } from './ids.ts';
export { AccountsPermission, CONTAIN, Permission, PermissionGrant, SECURITY_ENTITY } from './permissions.ts';

const Timestamp = deferred(() =>
  z.string().check(z.regex(TIMESTAMP_PATTERN, 'expected a UTC timestamp YYYY-MM-DD hh:mm:ss.fff')),
);
/** Responses from other servers may use ISO 8601; the dashboard parses both (see timestamps.ts). */
const AnyTimestamp = deferred(() => z.string());

/**
 * Control characters, bidirectional overrides and isolates, zero-width and other invisible format characters: a stored
 * name containing them can read as another name, or reverse the text shown around it. Text fields refuse them;
 * multi-line fields keep tab and line breaks.
 */
const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const HIDDEN_CHARACTER_EXCEPT_LINE_BREAKS = /(?![\t\n\r])[\p{Cc}\p{Cf}\u2028\u2029]/u;
const HIDDEN_MESSAGE = 'must not contain control, bidirectional-override or invisible characters';
const noHiddenCharacters = (pattern: RegExp) => z.refine<string>((value) => !pattern.test(value), HIDDEN_MESSAGE);

/** A single-line text field a person typed: trimmed, not empty, at most `max` characters, nothing hidden. */
export const PlainText = (max: number, requiredMessage?: string) =>
  z.string().check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(max), noHiddenCharacters(HIDDEN_CHARACTER));

/** The same, where empty means "not known" (a device that cannot tell its maker): trimmed, may be empty. */
export const OptionalPlainText = (max: number) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max), noHiddenCharacters(HIDDEN_CHARACTER)));

/**
 * The longest text each field of an authorization request takes, wherever a request is made (the demo actor, a
 * device's enrolment): one set of limits, so a request from either fits the same columns and screens.
 */
export const REQUEST_FIELD_MAX = {
  UserName: 256,
  UserEmail: 256,
  DeviceType: 64,
  Manufacturer: 128,
  Model: 128,
  OsVersion: 64,
} as const;

// Seed §2.1
export const LoginCredentials = deferred(() =>
  z.object({
    UserName: PlainText(256, 'UserName is required'),
    Password: z.string().check(z.minLength(1, 'Password is required'), z.maxLength(1024)),
  }),
);
export type LoginCredentials = z.infer<typeof LoginCredentials>;

// Seed §2.2: #3 and #4 take Id, the obsolete #2 takes InstructionId in its place.
const TokenValue = deferred(() => z.string().check(z.trim(), z.minLength(1, 'Token is required'), z.maxLength(64)));
export const InstructionTokenSubmission = deferred(() => z.object({ Id, Token: TokenValue }));
export type InstructionTokenSubmission = z.infer<typeof InstructionTokenSubmission>;
export const ObsoleteTokenSubmission = deferred(() => z.object({ InstructionId: Id, Token: TokenValue }));
export type ObsoleteTokenSubmission = z.infer<typeof ObsoleteTokenSubmission>;

// Seed §2.3
export const DeviceAuthorizationDecision = deferred(() =>
  z.object({
    RequestId: Id,
    RequestGuid: z.guid('RequestGuid must be a GUID'),
    Authorized: z.boolean(),
    Comment: z.nullish(z.string().check(z.maxLength(2000), noHiddenCharacters(HIDDEN_CHARACTER_EXCEPT_LINE_BREAKS))),
  }),
);
export type DeviceAuthorizationDecision = z.infer<typeof DeviceAuthorizationDecision>;

/** SPEC §3: the decision state of an authorization request (an extension field). */
export const AuthorizationRequestStatus = deferred(() => z.enum(['Pending', 'Authorized', 'Rejected']));
export type AuthorizationRequestStatus = z.infer<typeof AuthorizationRequestStatus>;

// Seed §2.4, plus SPEC §3's optional extensions a client may ignore.
export const AuthorizationRequest = deferred(() =>
  z.object({
    Id,
    UserName: z.string(),
    UserEmail: z.string(),
    RequestGuid: z.string(),
    DeviceType: z.string(),
    CreatedTimestampUtc: AnyTimestamp,
    ModifiedTimestampUtc: AnyTimestamp,
    Manufacturer: z.string(),
    Model: z.string(),
    OsVersion: z.string(),
    Status: z.optional(AuthorizationRequestStatus),
    Comment: z.nullish(z.string()),
    DecidedBy: z.nullish(z.string()),
    DecidedTimestampUtc: z.nullish(AnyTimestamp),
  }),
);
export type AuthorizationRequest = z.infer<typeof AuthorizationRequest>;
export const AuthorizationRequestList = deferred(() => z.array(AuthorizationRequest));

/** Seed §3: the push message user Status values, by name. Code reads these names, never the numbers. */
export const PushUserStatusCode = { Active: 1, Disabled: 2, Deleted: 3 } as const;
export type PushUserStatusName = keyof typeof PushUserStatusCode;
export type PushUserStatus = (typeof PushUserStatusCode)[PushUserStatusName];
/** Every status, in order. */
export const PUSH_USER_STATUS_VALUES = Object.values(PushUserStatusCode);
/** The name of each status number (the history and messages say the name). */
export const PUSH_USER_STATUSES = Object.fromEntries(
  Object.entries(PushUserStatusCode).map(([name, code]) => [code, name]),
) as Record<PushUserStatus, PushUserStatusName>;
/** A status number's name, as the history, the messages and the dashboard say it. */
export function statusName(status: PushUserStatus): PushUserStatusName {
  return PUSH_USER_STATUSES[status];
}
const statusChoices = PUSH_USER_STATUS_VALUES.map((code) => `${code} (${PUSH_USER_STATUSES[code]})`);
export const PushUserStatus = deferred(() =>
  z.literal(PUSH_USER_STATUS_VALUES, {
    error: `Status must be ${statusChoices.slice(0, -1).join(', ')} or ${statusChoices.at(-1)}`,
  }),
);

// Seed §2.5: note the capital S in CreatedTimeStampUtc.
export const PushMessageUser = deferred(() =>
  z.object({
    Id,
    DeviceType: z.string(),
    UserName: z.string(),
    CreatedTimeStampUtc: AnyTimestamp,
    ModifiedTimestampUtc: AnyTimestamp,
    Status: PushUserStatus,
    /** The device, as its authorization request described it; null when it registered otherwise (SPEC §3). */
    Manufacturer: z.optional(z.nullable(z.string())),
    Model: z.optional(z.nullable(z.string())),
    OsVersion: z.optional(z.nullable(z.string())),
  }),
);
export type PushMessageUser = z.infer<typeof PushMessageUser>;
export const PushMessageUserList = deferred(() => z.array(PushMessageUser));

/**
 * #9's answer: the push user and, as extensions, when its device enrolled and was last seen (its credential last
 * used, to the minute); null for a registration no enrolled device made. The list (#8) leaves them out: a device
 * seen does not change the list's ETag.
 */
export const PushMessageUserDetail = deferred(() =>
  z.extend(PushMessageUser, {
    EnrolledTimestampUtc: z.optional(z.nullable(AnyTimestamp)),
    LastSeenTimestampUtc: z.optional(z.nullable(AnyTimestamp)),
  }),
);
export type PushMessageUserDetail = z.infer<typeof PushMessageUserDetail>;

/** Seed §3 rule 2: only Id and Status count on PUT; every other field is ignored whatever it holds. */
export const PushMessageUserUpdate = deferred(() => z.object({ Id, Status: PushUserStatus }));
export type PushMessageUserUpdate = z.infer<typeof PushMessageUserUpdate>;

// SPEC §3 "Authentication and sessions"

export const Session = deferred(() =>
  z.object({
    TokenType: z.literal('Bearer'),
    ExpiresUtc: AnyTimestamp,
    UserName: z.string(),
    Permissions: z.array(PermissionGrant),
    /** Extension, present when true: the session may only add a second factor, which the policy asks of this person. */
    EnrolmentRequired: z.optional(z.boolean()),
  }),
);
export type Session = z.infer<typeof Session>;
/** `Successful` is what the published SDK reads from a sign-in (SPEC §3); optional for servers without it. */
export const LoginResult = deferred(() =>
  z.extend(Session, {
    Token: z.string().check(z.minLength(1)),
    Successful: z.optional(z.boolean()),
    /** Extension, after a sign-in with a recovery code: how many the person has left. */
    RecoveryCodesLeft: z.optional(z.int()),
  }),
);
export type LoginResult = z.infer<typeof LoginResult>;

/** SPEC §3: a correct two-factor token. */
export const TokenAccepted = deferred(() =>
  z.object({ Id, Authenticated: z.literal(true), Successful: z.optional(z.boolean()) }),
);
export type TokenAccepted = z.infer<typeof TokenAccepted>;

export const VersionInfo = deferred(() =>
  z.object({
    DefaultVersion: z.string(),
    SupportedVersions: z.array(z.string()),
    /** Extension: whether demo mode (demo accounts and /api/Demo/) is on. */
    Demo: z.optional(z.boolean()),
  }),
);
export type VersionInfo = z.infer<typeof VersionInfo>;

/**
 * Extension: how far a new organisation has come in setting the service up, for the overview's first-run checklist.
 * Each fact is read from the service's own state, so a step ticks itself once it is done.
 */
export const SetupProgress = deferred(() =>
  z.object({
    /** Whether demo mode is on (the checklist is for a real organisation). */
    Demo: z.boolean(),
    /** The address links and QR codes carry (PUBLIC_URL, or the default made from HOST and PORT). */
    PublicUrl: z.string(),
    /** False while that address is a loopback one (localhost, 127.0.0.1, ::1) that no phone can open. */
    PublicUrlReachable: z.boolean(),
    /** A local account besides the first administrator exists, or someone has signed in from the directory. */
    AccountsAdded: z.boolean(),
    /** A directory (LDAP) is configured. */
    DirectoryConnected: z.boolean(),
    /** A device has registered for push messages. */
    DeviceEnrolled: z.boolean(),
    /** An instruction has been created whose code went to a device. */
    CodeSent: z.boolean(),
  }),
);
export type SetupProgress = z.infer<typeof SetupProgress>;

/** Extension: the health checks' answer (SPEC §3 "Running it"). */
export const HealthStatus = deferred(() => z.object({ Status: z.enum(['live', 'ready']) }));
export type HealthStatus = z.infer<typeof HealthStatus>;

// Demo actors (SPEC §3 "Demo mode")
export const DemoAuthorizationRequestInput = deferred(() =>
  z.object({
    UserName: z.optional(PlainText(REQUEST_FIELD_MAX.UserName)),
    UserEmail: z.optional(PlainText(REQUEST_FIELD_MAX.UserEmail)),
    DeviceType: z.optional(PlainText(REQUEST_FIELD_MAX.DeviceType)),
    Manufacturer: z.optional(PlainText(REQUEST_FIELD_MAX.Manufacturer)),
    Model: z.optional(PlainText(REQUEST_FIELD_MAX.Model)),
    OsVersion: z.optional(PlainText(REQUEST_FIELD_MAX.OsVersion)),
  }),
);
export type DemoAuthorizationRequestInput = z.infer<typeof DemoAuthorizationRequestInput>;

export const InstructionState = deferred(() => z.enum(['AwaitingTwoFactor', 'Authenticated', 'Expired']));
export type InstructionState = z.infer<typeof InstructionState>;

export const DemoInstructionInput = deferred(() => z.object({ Scheduled: z._default(z.boolean(), false) }));
export const DemoInstruction = deferred(() =>
  z.object({
    Id,
    Scheduled: z.boolean(),
    CreatedBy: z.string(),
    State: InstructionState,
    DeliveredTo: z.int().check(z.minimum(0)),
  }),
);
export type DemoInstruction = z.infer<typeof DemoInstruction>;

export const DemoPush = deferred(() =>
  z.object({
    Id,
    PushMessageUserId: Id,
    DeviceType: z.string(),
    InstructionId: Id,
    Scheduled: z.boolean(),
    Token: z.string(),
    SentTimestampUtc: Timestamp,
  }),
);
export type DemoPush = z.infer<typeof DemoPush>;
export const DemoPushList = deferred(() => z.array(DemoPush));

/** The query of #6: `getall` is optional and means false when omitted (SPEC §3). */
export const AuthorizationRequestQuery = deferred(() =>
  z.object({
    getall: z.optional(
      z.pipe(
        // Any case, spelt out rather than with the i flag: JSON Schema patterns (the OpenAPI document) have no flags.
        z.string().check(z.regex(/^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$/, 'getall must be true or false')),
        z.transform((value: string) => value.toLowerCase() === 'true'),
      ),
    ),
  }),
);
