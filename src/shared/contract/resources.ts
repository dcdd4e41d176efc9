import { z } from 'zod';
import { TIMESTAMP_PATTERN } from './timestamps.ts';

/**
 * Ids are positive 32-bit integers: `int` on the real server, `integer` columns in both databases.
 * A larger number is a 400 like any other invalid Id (PostgreSQL would refuse to compare it with a column).
 */
export const ID_MAX = 2_147_483_647;
export const Id = z.int().min(1).max(ID_MAX);

const Timestamp = z.string().regex(TIMESTAMP_PATTERN, 'expected a UTC timestamp YYYY-MM-DD hh:mm:ss.fff');
/** Responses from other servers may use ISO 8601; the dashboard parses both (see timestamps.ts). */
const AnyTimestamp = z.string();

// Seed §2.1
export const LoginCredentials = z.object({
  UserName: z.string().trim().min(1, 'UserName is required').max(256),
  Password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginCredentials = z.infer<typeof LoginCredentials>;

// Seed §2.2: #3 and #4 take Id, the obsolete #2 takes InstructionId in its place.
const TokenValue = z.string().trim().min(1, 'Token is required').max(64);
export const InstructionTokenSubmission = z.object({ Id, Token: TokenValue });
export type InstructionTokenSubmission = z.infer<typeof InstructionTokenSubmission>;
export const ObsoleteTokenSubmission = z.object({ InstructionId: Id, Token: TokenValue });
export type ObsoleteTokenSubmission = z.infer<typeof ObsoleteTokenSubmission>;

// Seed §2.3
export const DeviceAuthorizationDecision = z.object({
  RequestId: Id,
  RequestGuid: z.guid('RequestGuid must be a GUID'),
  Authorized: z.boolean(),
  Comment: z.string().max(2000).nullish(),
});
export type DeviceAuthorizationDecision = z.infer<typeof DeviceAuthorizationDecision>;

/** SPEC §3: the decision state of an authorization request (an extension field). */
export const AuthorizationRequestStatus = z.enum(['Pending', 'Authorized', 'Rejected']);
export type AuthorizationRequestStatus = z.infer<typeof AuthorizationRequestStatus>;

// Seed §2.4, plus SPEC §3's optional extensions a client may ignore.
export const AuthorizationRequest = z.object({
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
  Status: AuthorizationRequestStatus.optional(),
  Comment: z.string().nullish(),
  DecidedBy: z.string().nullish(),
  DecidedTimestampUtc: AnyTimestamp.nullish(),
});
export type AuthorizationRequest = z.infer<typeof AuthorizationRequest>;
export const AuthorizationRequestList = z.array(AuthorizationRequest);

/** Seed §3: push message user Status values. */
export const PUSH_USER_STATUSES = { 1: 'Active', 2: 'Disabled', 3: 'Deleted' } as const;
export const PushUserStatus = z.union([z.literal(1), z.literal(2), z.literal(3)], {
  error: 'Status must be 1 (Active), 2 (Disabled) or 3 (Deleted)',
});
export type PushUserStatus = z.infer<typeof PushUserStatus>;
export type PushUserStatusName = (typeof PUSH_USER_STATUSES)[PushUserStatus];

// Seed §2.5: note the capital S in CreatedTimeStampUtc.
export const PushMessageUser = z.object({
  Id,
  DeviceType: z.string(),
  UserName: z.string(),
  CreatedTimeStampUtc: AnyTimestamp,
  ModifiedTimestampUtc: AnyTimestamp,
  Status: PushUserStatus,
});
export type PushMessageUser = z.infer<typeof PushMessageUser>;
export const PushMessageUserList = z.array(PushMessageUser);

/** Seed §3 rule 2: only Id and Status count on PUT; every other field is ignored whatever it holds. */
export const PushMessageUserUpdate = z.object({ Id, Status: PushUserStatus });
export type PushMessageUserUpdate = z.infer<typeof PushMessageUserUpdate>;

// SPEC §3 "Authentication and sessions"
export const SECURITY_ENTITY = 'Security';
export const Permission = z.enum(['Read', 'Write']);
export type Permission = z.infer<typeof Permission>;
export const PermissionGrant = z.object({ Entity: z.string(), Permissions: z.array(z.string()) });
export type PermissionGrant = z.infer<typeof PermissionGrant>;

export const Session = z.object({
  TokenType: z.literal('Bearer'),
  ExpiresUtc: AnyTimestamp,
  UserName: z.string(),
  Permissions: z.array(PermissionGrant),
});
export type Session = z.infer<typeof Session>;
export const LoginResult = Session.extend({ Token: z.string().min(1) });
export type LoginResult = z.infer<typeof LoginResult>;

/** SPEC §3: a correct two-factor token. */
export const TokenAccepted = z.object({ Id, Authenticated: z.literal(true) });
export type TokenAccepted = z.infer<typeof TokenAccepted>;

export const VersionInfo = z.object({
  DefaultVersion: z.string(),
  SupportedVersions: z.array(z.string()),
  /** Extension: whether demo mode (demo accounts and /api/Demo/) is on. */
  Demo: z.boolean().optional(),
});
export type VersionInfo = z.infer<typeof VersionInfo>;

// Demo actors (SPEC §3 "Demo mode")
export const DemoAuthorizationRequestInput = z.object({
  UserName: z.string().trim().min(1).max(256).optional(),
  UserEmail: z.string().trim().min(1).max(256).optional(),
  DeviceType: z.string().trim().min(1).max(64).optional(),
  Manufacturer: z.string().trim().min(1).max(128).optional(),
  Model: z.string().trim().min(1).max(128).optional(),
  OsVersion: z.string().trim().min(1).max(64).optional(),
});
export type DemoAuthorizationRequestInput = z.infer<typeof DemoAuthorizationRequestInput>;

export const InstructionState = z.enum(['AwaitingTwoFactor', 'Authenticated', 'Expired']);
export type InstructionState = z.infer<typeof InstructionState>;

export const DemoInstructionInput = z.object({ Scheduled: z.boolean().default(false) });
export const DemoInstruction = z.object({
  Id,
  Scheduled: z.boolean(),
  CreatedBy: z.string(),
  State: InstructionState,
  DeliveredTo: z.int().min(0),
});
export type DemoInstruction = z.infer<typeof DemoInstruction>;

export const DemoPush = z.object({
  Id,
  PushMessageUserId: Id,
  DeviceType: z.string(),
  InstructionId: Id,
  Scheduled: z.boolean(),
  Token: z.string(),
  SentTimestampUtc: Timestamp,
});
export type DemoPush = z.infer<typeof DemoPush>;
export const DemoPushList = z.array(DemoPush);

/** The query of #6: `getall` is optional and means false when omitted (SPEC §3). */
export const AuthorizationRequestQuery = z.object({
  getall: z
    .string()
    .regex(/^(true|false)$/i, 'getall must be true or false')
    .transform((value) => value.toLowerCase() === 'true')
    .optional(),
});

/** An Id as it arrives in a path or query string. */
export const IdText = z
  .string()
  .regex(/^\d{1,15}$/, 'id must be a positive integer')
  .transform(Number)
  .pipe(Id);

export const IdParam = z.object({ id: IdText });
