import { type Kysely, sql } from 'kysely';
import {
  type Account,
  type AccountHistoryEntry,
  type AccountKind,
  formatTimestamp,
  holdsAccountsPermission,
  type Person,
  type PersonDevice,
  type PersonRequest,
  type PersonSummary,
  PushUserStatusCode,
  type ReportHandled,
  type SentCode,
  type SentCodeOutcome,
} from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/problem-error.ts';
import { toAuthorizationRequest } from '../consumer/authorization-requests.ts';
import { changePushMessageUserStatus, pushUserChanged, toPushMessageUser } from '../consumer/push-users.ts';
import { type ChangePublisher, writeAndPublish } from '../core/change-feed.ts';
import { accountKindOf, loadGrants, userKeyOf } from '../identity/principals.ts';
import { listTemporaryCodes } from '../two-factor/temporary-codes.ts';

/** Codes and sign-ins a person's page shows: the latest, enough for a screen. */
const CODES_LIMIT = 50;
const SIGN_INS_LIMIT = 20;

/** The sign-in entries of an account's history (the rest are changes made to it). */
const SIGN_IN_ACTIONS = new Set(['SignedIn', 'SignInFailed', 'DirectoryUnavailable', 'SecondStepAsked']);

interface Tally {
  userName: string;
  /** Which source named the person: an account's spelling wins, then the newest request or push user. */
  named: 'account' | 'other';
  hasAccount: boolean;
  lastSignIn: string | null;
  devices: number;
  activeDevices: number;
  pending: number;
  openReports: number;
}

/**
 * Everyone the service knows, one row per person: four grouped reads (accounts, push users, requests, open reports),
 * merged by user key. Each read is one pass over its table, so 50,000 people cost four scans, not 50,000 lookups.
 * Requests are grouped by their exact user name and merged here, because SQLite's lower() folds ASCII only.
 */
export async function listPeople(db: Kysely<Database>): Promise<PersonSummary[]> {
  const [accounts, pushUsers, requests, reports] = await Promise.all([
    db.selectFrom('principals').select(['user_key', 'user_name', 'last_sign_in_at']).execute(),
    db
      .selectFrom('push_message_users')
      .select((eb) => [
        'user_key',
        eb.fn.max('user_name').as('user_name'),
        eb.fn
          .sum<number | string>(eb.case().when('status', '!=', PushUserStatusCode.Deleted).then(1).else(0).end())
          .as('devices'),
        eb.fn
          .sum<number | string>(eb.case().when('status', '=', PushUserStatusCode.Active).then(1).else(0).end())
          .as('active'),
      ])
      .groupBy('user_key')
      .execute(),
    db
      .selectFrom('authorization_requests')
      .select((eb) => [
        'user_name',
        eb.fn.sum<number | string>(eb.case().when('status', '=', 'Pending').then(1).else(0).end()).as('pending'),
      ])
      .groupBy('user_name')
      .execute(),
    db
      .selectFrom('token_issues')
      .select((eb) => ['user_key', eb.fn.countAll<number | string>().as('open')])
      .where('reported_at', 'is not', null)
      .where('handled_at', 'is', null)
      .groupBy('user_key')
      .execute(),
  ]);

  const people = new Map<string, Tally>();
  const tally = (key: string, userName: string): Tally => {
    let row = people.get(key);
    if (!row) {
      row = {
        userName,
        named: 'other',
        hasAccount: false,
        lastSignIn: null,
        devices: 0,
        activeDevices: 0,
        pending: 0,
        openReports: 0,
      };
      people.set(key, row);
    }
    return row;
  };
  for (const account of accounts) {
    const row = tally(account.user_key, account.user_name);
    Object.assign(row, {
      userName: account.user_name,
      named: 'account',
      hasAccount: true,
      lastSignIn: account.last_sign_in_at,
    });
  }
  for (const user of pushUsers) {
    const row = tally(user.user_key, user.user_name);
    row.devices += Number(user.devices ?? 0);
    row.activeDevices += Number(user.active ?? 0);
  }
  for (const request of requests) {
    const row = tally(userKeyOf(request.user_name), request.user_name);
    row.pending += Number(request.pending ?? 0);
  }
  for (const report of reports) {
    // A report is of a code sent to a person the service knows: their account made the instruction.
    const row = people.get(report.user_key);
    if (row) row.openReports += Number(report.open);
  }
  return [...people.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => ({
      UserName: row.userName,
      HasAccount: row.hasAccount,
      LastSignInUtc: row.lastSignIn,
      Devices: row.devices,
      ActiveDevices: row.activeDevices,
      PendingRequests: row.pending,
      OpenReports: row.openReports,
    }));
}

/** What a person's page reads of their account, when the caller may read accounts. */
export interface AccountReader {
  get(id: number): Promise<Account>;
  history(id: number): Promise<AccountHistoryEntry[]>;
}

/**
 * One person by user name (any case): their push users, requests (each linked to what it registered), codes sent to
 * them and their account. Unknown everywhere: 404. `accounts` is null when the caller may not read accounts.
 */
export async function getPerson(
  db: Kysely<Database>,
  clock: Clock,
  userName: string,
  accounts: AccountReader | null,
): Promise<Person> {
  const key = userKeyOf(userName);
  const [principal, pushUsers, requests, devices] = await Promise.all([
    db
      .selectFrom('principals')
      .select(['id', 'user_name', 'last_sign_in_at', 'enabled', 'kind'])
      .where('user_key', '=', key)
      .executeTakeFirst(),
    db.selectFrom('push_message_users').selectAll().where('user_key', '=', key).orderBy('id').execute(),
    db
      .selectFrom('authorization_requests')
      .selectAll()
      // lower() as the index has it; the exact name too, for names SQLite's ASCII-only lower() does not fold.
      .where((eb) => eb.or([eb(sql<string>`lower(user_name)`, '=', key), eb('user_name', '=', userName.trim())]))
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('devices')
      .innerJoin('principals', 'principals.id', 'devices.principal_id')
      .select(['devices.authorization_request_id', 'devices.push_message_user_id'])
      .where('principals.user_key', '=', key)
      .where('devices.push_message_user_id', 'is not', null)
      .execute(),
  ]);
  const matchingRequests = requests.filter((row) => userKeyOf(row.user_name) === key);
  const codes = await sentCodes(db, clock, key);
  if (!principal && pushUsers.length === 0 && matchingRequests.length === 0 && codes.length === 0) {
    throw notFound('Person', userName);
  }

  // Which request registered which push user: an enrolled device records both; otherwise the newest authorized
  // request of that person and device type (a push user is registered again by each one).
  const requestOfPushUser = new Map<number, number>();
  for (const device of devices) {
    if (device.push_message_user_id !== null) {
      requestOfPushUser.set(device.push_message_user_id, device.authorization_request_id);
    }
  }
  for (const user of pushUsers) {
    if (requestOfPushUser.has(user.id)) continue;
    const registering = matchingRequests.find(
      (request) => request.status === 'Authorized' && request.device_type === user.device_type,
    );
    if (registering) requestOfPushUser.set(user.id, registering.id);
  }
  const pushUserOfRequest = new Map<number, number>();
  for (const [pushUserId, requestId] of requestOfPushUser) pushUserOfRequest.set(requestId, pushUserId);
  for (const request of matchingRequests) {
    if (request.status !== 'Authorized' || pushUserOfRequest.has(request.id)) continue;
    const registered = pushUsers.find((user) => user.device_type === request.device_type);
    if (registered) pushUserOfRequest.set(request.id, registered.id);
  }

  const deviceList: PersonDevice[] = pushUsers.map((row) => ({
    ...toPushMessageUser(row),
    AuthorizationRequestId: requestOfPushUser.get(row.id) ?? null,
  }));
  const requestList: PersonRequest[] = matchingRequests.map((row) => ({
    ...toAuthorizationRequest(row),
    PushMessageUserId: pushUserOfRequest.get(row.id) ?? null,
  }));
  const account = principal && accounts ? await accounts.get(principal.id) : null;
  const signIns =
    principal && accounts
      ? (await accounts.history(principal.id))
          .filter((entry) => SIGN_IN_ACTIONS.has(entry.Action))
          .slice(0, SIGN_INS_LIMIT)
      : [];
  const newestName = pushUsers.at(-1)?.user_name ?? matchingRequests[0]?.user_name ?? userName.trim();
  const accountState = principal
    ? {
        Id: principal.id,
        Enabled: principal.enabled === 1,
        Kind: accountKindOf(principal.kind),
        Protected: holdsAccountsPermission(await loadGrants(db, principal.id)),
      }
    : null;
  return {
    UserName: principal?.user_name ?? newestName,
    HasAccount: principal !== undefined,
    LastSignInUtc: principal?.last_sign_in_at ?? null,
    Account: account,
    AccountVisible: accounts !== null,
    Devices: deviceList,
    Requests: requestList,
    Codes: codes,
    SignIns: signIns,
    AccountState: accountState,
    TemporaryCodes: principal ? await listTemporaryCodes(db, clock, principal.id) : [],
  };
}

/** The latest codes sent to a person, newest first, and what became of each. Never the code. */
async function sentCodes(db: Kysely<Database>, clock: Clock, key: string): Promise<SentCode[]> {
  const rows = await db
    .selectFrom('token_issues')
    .innerJoin('instructions', 'instructions.id', 'token_issues.instruction_id')
    .select((eb) => [
      'token_issues.id',
      'token_issues.instruction_id',
      'token_issues.issued_at',
      'token_issues.expires_at',
      'token_issues.client_address',
      'token_issues.user_agent',
      'token_issues.devices_notified',
      'token_issues.reported_at',
      'token_issues.handled_at',
      'token_issues.handled_by',
      'instructions.name',
      'instructions.scheduled',
      'instructions.state',
      'instructions.token_hash',
      // The instruction's latest code: only that one can have been used.
      eb
        .selectFrom('token_issues as later')
        .select((inner) => inner.fn.max('later.id').as('latest'))
        .whereRef('later.instruction_id', '=', 'token_issues.instruction_id')
        .as('latest_id'),
    ])
    .where('token_issues.user_key', '=', key)
    .orderBy('token_issues.id', 'desc')
    .limit(CODES_LIMIT)
    .execute();
  const now = formatTimestamp(clock());
  return rows.map((row) => {
    const latest = Number(row.latest_id) === row.id;
    let outcome: SentCodeOutcome;
    if (row.reported_at !== null) outcome = 'Reported';
    else if (!latest) outcome = 'Replaced';
    else if (row.state === 'Authenticated') outcome = 'Used';
    // Only a report takes a waiting code's hash away without using it (code-reports.ts).
    else if (row.state === 'Expired' && row.token_hash === null) outcome = 'Ended';
    else if (row.state === 'Expired' || row.expires_at <= now) outcome = 'Expired';
    else outcome = 'Waiting';
    return {
      Id: row.id,
      InstructionId: row.instruction_id,
      InstructionName: row.name,
      Scheduled: row.scheduled === 1,
      SentTimestampUtc: row.issued_at,
      ClientAddress: row.client_address,
      UserAgent: row.user_agent,
      DevicesNotified: row.devices_notified,
      Outcome: outcome,
      ReportedTimestampUtc: row.reported_at,
      HandledBy: row.handled_by,
      HandledTimestampUtc: row.handled_at,
    };
  });
}

/** Marks a reported code handled by `by`, now; one already handled keeps who handled it first. */
export async function markReportHandled(
  db: Kysely<Database>,
  clock: Clock,
  id: number,
  by: string,
): Promise<ReportHandled> {
  const row = await writeTransaction(db, async (trx) => {
    await trx
      .updateTable('token_issues')
      .set({ handled_at: formatTimestamp(clock()), handled_by: by })
      .where('id', '=', id)
      .where('reported_at', 'is not', null)
      .where('handled_at', 'is', null)
      .execute();
    return trx
      .selectFrom('token_issues')
      .select(['id', 'handled_at', 'handled_by'])
      .where('id', '=', id)
      .where('reported_at', 'is not', null)
      .executeTakeFirst();
  });
  if (!row?.handled_at || !row.handled_by) throw notFound('Report', id);
  return { Id: row.id, HandledBy: row.handled_by, HandledTimestampUtc: row.handled_at };
}

/** The account of a person by user name, for acting on it (enrolling a device for them): null without one. */
export async function accountOfPerson(
  db: Kysely<Database>,
  userName: string,
): Promise<{ id: number; userName: string; userKey: string; enabled: boolean; kind: AccountKind } | null> {
  const row = await db
    .selectFrom('principals')
    .select(['id', 'user_name', 'user_key', 'enabled', 'kind'])
    .where('user_key', '=', userKeyOf(userName))
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        userName: row.user_name,
        userKey: row.user_key,
        enabled: row.enabled === 1,
        kind: accountKindOf(row.kind),
      }
    : null;
}

/** Disables every Active device (push user) of a person at once: how many changed. */
export async function disablePersonDevices(
  db: Kysely<Database>,
  clock: Clock,
  userName: string,
  changedBy: string,
  changes: ChangePublisher,
): Promise<number> {
  const changed = await writeAndPublish(
    db,
    changes,
    async (trx) => {
      const active = await trx
        .selectFrom('push_message_users')
        .select('id')
        .where('user_key', '=', userKeyOf(userName))
        .where('status', '=', PushUserStatusCode.Active)
        .execute();
      const users = [];
      for (const { id } of active) {
        users.push(
          await changePushMessageUserStatus(trx, { clock, id, status: PushUserStatusCode.Disabled, changedBy }),
        );
      }
      return users;
    },
    (users) => users.map((user) => pushUserChanged(user, changedBy)),
  );
  return changed.length;
}
