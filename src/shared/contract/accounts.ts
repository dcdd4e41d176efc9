import { z } from 'zod/mini';
import { Id, PlainText } from './resources.ts';

/** The entities a grant can name: Security (seed §5.4) and this product's Accounts. */
export const ACCOUNTS_ENTITY = 'Accounts';
export const GrantEntity = z.enum(['Security', 'Accounts']);
export type GrantEntity = z.infer<typeof GrantEntity>;

/** Password policy (OWASP ASVS 5.0 chapter 6): length only here; the service also refuses common passwords. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const NewPassword = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

export const AccountSource = z.enum(['Local', 'Directory', 'Oidc']);
export type AccountSource = z.infer<typeof AccountSource>;

const Permissions = z.array(z.enum(['Read', 'Write']));
/** An account's permissions: one list per entity, both always present. */
export const AccountPermissions = z.object({ Security: Permissions, Accounts: Permissions });
export type AccountPermissions = z.infer<typeof AccountPermissions>;

/**
 * An account's email address: what a device's authorization request carries as UserEmail. Optional; a directory
 * account's comes from the directory (LDAP_EMAIL_ATTRIBUTE).
 */
export const ACCOUNT_EMAIL_MAX = 256;
export const AccountEmail = z.email('Email must be an email address').check(z.maxLength(ACCOUNT_EMAIL_MAX));

export const Account = z.object({
  Id,
  UserName: z.string(),
  /** Null when the account has none; absent from servers without email addresses. */
  Email: z.optional(z.nullable(z.string())),
  Source: AccountSource,
  Enabled: z.boolean(),
  Permissions: AccountPermissions,
  /** Directory accounts' permissions come from their groups and are shown read-only. */
  PermissionsEditable: z.boolean(),
  LastSignInUtc: z.nullable(z.string()),
  CreatedUtc: z.nullable(z.string()),
  ActiveSessions: z.int().check(z.minimum(0)),
  /**
   * Extension: a local account whose name is in the directory's domain (LDAP_DOMAIN). It keeps its own password and
   * permissions, and the directory person of the same name cannot sign in here while it exists.
   */
  InsideDirectoryDomain: z.optional(z.boolean()),
});
export type Account = z.infer<typeof Account>;
export const AccountList = z.array(Account);

/** `DOMAIN\user`: a domain and a name, no spaces at either end (the shape Windows accounts have). */
const AccountName = z.pipe(
  PlainText(256, 'UserName is required'),
  z.string().check(z.regex(/^[^\\/\s]+\\[^\\/]+$/, 'UserName must look like DOMAIN\\user')),
);

export const AccountCreation = z.object({
  UserName: AccountName,
  Password: NewPassword,
  Email: z.optional(z.nullable(AccountEmail)),
  Permissions: z._default(AccountPermissions, { Security: [], Accounts: [] }),
});
export type AccountCreation = z.infer<typeof AccountCreation>;

export const AccountPermissionsUpdate = z.object({ Permissions: AccountPermissions });
export type AccountPermissionsUpdate = z.infer<typeof AccountPermissionsUpdate>;

/** A local account's email address, or null to remove it. */
export const AccountEmailUpdate = z.object({ Email: z.nullable(AccountEmail) });
export type AccountEmailUpdate = z.infer<typeof AccountEmailUpdate>;

export const AccountEnabledUpdate = z.object({ Enabled: z.boolean() });
export type AccountEnabledUpdate = z.infer<typeof AccountEnabledUpdate>;

export const PasswordReset = z.object({ Password: NewPassword });
export type PasswordReset = z.infer<typeof PasswordReset>;

export const OwnPasswordChange = z.object({
  OldPassword: z.string().check(z.minLength(1, 'OldPassword is required'), z.maxLength(1024)),
  NewPassword,
});
export type OwnPasswordChange = z.infer<typeof OwnPasswordChange>;

export const AccountHistoryAction = z.enum([
  'SignedIn',
  'SignInFailed',
  'DirectoryUnavailable',
  'Created',
  'PermissionsChanged',
  'Disabled',
  'Enabled',
  'PasswordReset',
  'PasswordChanged',
  /** A wrong current password given to change one's own password: counted as a failed sign-in. */
  'PasswordChangeFailed',
  'SignedOutEverywhere',
  'EmailChanged',
  /** The person's device said a two-factor code was not asked for by them (their sessions ended). */
  'CodeReported',
]);
export type AccountHistoryAction = z.infer<typeof AccountHistoryAction>;

/** One sign-in, failed sign-in or account change. Never holds a password or a hash. */
export const AccountHistoryEntry = z.object({
  Id,
  AccountId: z.nullable(Id),
  /** For sign-ins, the user name as typed. */
  UserName: z.string(),
  Action: AccountHistoryAction,
  Detail: z.nullable(z.string()),
  ClientAddress: z.nullable(z.string()),
  Consumer: z.nullable(z.string()),
  ChangedBy: z.nullable(z.string()),
  ChangedTimestampUtc: z.string(),
});
export type AccountHistoryEntry = z.infer<typeof AccountHistoryEntry>;
export const AccountHistoryList = z.array(AccountHistoryEntry);

/**
 * A two-factor code its person reported from their device as not asked for by them ("This wasn't me"): shown to
 * account administrators, with where the code was asked for, since whoever did it knows that person's password.
 */
export const ReportedCode = z.object({
  /** The report's own Id (one per code reported). */
  Id,
  AccountId: z.nullable(Id),
  UserName: z.string(),
  InstructionId: Id,
  InstructionName: z.string(),
  Scheduled: z.boolean(),
  /** When the code was asked for, and from where: the address and User-Agent of the request that asked. */
  RequestedTimestampUtc: z.string(),
  ClientAddress: z.nullable(z.string()),
  UserAgent: z.nullable(z.string()),
  ReportedTimestampUtc: z.string(),
});
export type ReportedCode = z.infer<typeof ReportedCode>;
export const ReportedCodeList = z.array(ReportedCode);
