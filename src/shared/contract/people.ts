import { z } from 'zod/mini';
import { Account, AccountHistoryList, AccountKind } from './accounts.ts';
import { deferred } from './deferred.ts';
import { AuthorizationRequest, Id, PlainText, PushMessageUser } from './resources.ts';
import { TemporaryCode } from './temporary-codes.ts';

/*
 * People (extension, under /api only): everyone the service knows, by user name. A person is an account, the user
 * name of an authorization request, or the user name of a push message user; user names compare case-insensitively
 * (Windows account names), so `DEMO\Jane` and `demo\jane` are one person.
 */

/** A person in a path: the user name as it is, `DOMAIN\user` (the backslash percent-encoded as %5C). */
export const PersonParam = deferred(() => z.object({ userName: PlainText(256, 'userName is required') }));

/** One row of the People list. */
export const PersonSummary = deferred(() =>
  z.object({
    /** As their account spells it, or else as their latest request or push user does. */
    UserName: z.string(),
    /** Whether the person has an account here (only then can a device be enrolled for them). */
    HasAccount: z.boolean(),
    /** The account's last sign-in; null without an account or before the first. */
    LastSignInUtc: z.nullable(z.string()),
    /** Push user registrations not Deleted, and of them the Active ones. */
    Devices: z.int().check(z.minimum(0)),
    ActiveDevices: z.int().check(z.minimum(0)),
    PendingRequests: z.int().check(z.minimum(0)),
    /** "This wasn't me" reports nobody has marked handled yet. */
    OpenReports: z.int().check(z.minimum(0)),
  }),
);
export type PersonSummary = z.infer<typeof PersonSummary>;
export const PersonSummaryList = deferred(() => z.array(PersonSummary));

/** A push user registration of the person, with the request that registered it when known. */
export const PersonDevice = deferred(() =>
  z.extend(PushMessageUser, {
    /** The authorization request that registered it; null when none is known (registered before requests were kept). */
    AuthorizationRequestId: z.nullable(Id),
  }),
);
export type PersonDevice = z.infer<typeof PersonDevice>;

/** An authorization request of the person, with the push user it registered once authorized. */
export const PersonRequest = deferred(() =>
  z.extend(AuthorizationRequest, {
    PushMessageUserId: z.nullable(Id),
  }),
);
export type PersonRequest = z.infer<typeof PersonRequest>;

/**
 * What became of a code sent to the person: still waiting, used, expired unused, replaced by a newer one, reported
 * ("This wasn't me"), or ended before its time by the report of another of their codes.
 */
export const SentCodeOutcome = deferred(() => z.enum(['Waiting', 'Used', 'Expired', 'Replaced', 'Reported', 'Ended']));
export type SentCodeOutcome = z.infer<typeof SentCodeOutcome>;

/** A two-factor code sent to the person: never the code itself. */
export const SentCode = deferred(() =>
  z.object({
    /** The Id: a reported code's report has the same Id. */
    Id,
    InstructionId: Id,
    InstructionName: z.string(),
    Scheduled: z.boolean(),
    SentTimestampUtc: z.string(),
    /** The address and User-Agent of the request that asked for it. */
    ClientAddress: z.nullable(z.string()),
    UserAgent: z.nullable(z.string()),
    DevicesNotified: z.int().check(z.minimum(0)),
    Outcome: SentCodeOutcome,
    /** For a reported code: when, and whether and by whom the report was handled. */
    ReportedTimestampUtc: z.nullable(z.string()),
    HandledBy: z.nullable(z.string()),
    HandledTimestampUtc: z.nullable(z.string()),
  }),
);
export type SentCode = z.infer<typeof SentCode>;

/** `GET /People/{userName}`: one person, everything the service holds about them. */
export const Person = deferred(() =>
  z.object({
    UserName: z.string(),
    HasAccount: z.boolean(),
    LastSignInUtc: z.nullable(z.string()),
    /** Their account; null without one, or when the caller lacks Read on Accounts (`AccountVisible` says which). */
    Account: z.nullable(Account),
    /** False when the caller may not read accounts: Account and SignIns are then withheld, not absent. */
    AccountVisible: z.boolean(),
    Devices: z.array(PersonDevice),
    Requests: z.array(PersonRequest),
    /** The latest codes sent to them, newest first. */
    Codes: z.array(SentCode),
    /** Their recent sign-ins and failed sign-ins, newest first (Read on Accounts; empty otherwise). */
    SignIns: AccountHistoryList,
    /**
     * What containment needs of their account, to everyone who may read the person: null without an account.
     * `Protected`: it holds Accounts permissions, so only Write on Accounts acts on it.
     */
    AccountState: z.optional(
      z.nullable(z.object({ Id, Enabled: z.boolean(), Kind: AccountKind, Protected: z.boolean() })),
    ),
    /** Temporary codes issued for them, newest first (never the code), with their uses. */
    TemporaryCodes: z.optional(z.array(TemporaryCode)),
  }),
);
export type Person = z.infer<typeof Person>;

/** Devices disabled at once: how many changed. */
export const DevicesDisabled = deferred(() => z.object({ Disabled: z.int().check(z.minimum(0)) }));
export type DevicesDisabled = z.infer<typeof DevicesDisabled>;

/** A reported code marked handled: by whom and when. */
export const ReportHandled = deferred(() =>
  z.object({
    Id,
    HandledBy: z.string(),
    HandledTimestampUtc: z.string(),
  }),
);
export type ReportHandled = z.infer<typeof ReportHandled>;
