import type { Kysely } from 'kysely';
import {
  ACCOUNTS_ENTITY,
  type ContextHint,
  type OtherDevice,
  PushUserStatusCode,
  type RequestContext,
  type RequestOrigin,
} from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { clientKey } from '../../lib/client-key.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { userKeyOf } from '../identity/principals.ts';

/** What a device is called in a hint: its model when it told one, else its type ("iPhone 15", "Android"). */
const deviceName = (device: { Model: string | null; DeviceType: string }) => device.Model || device.DeviceType;

const NOT_RECORDED: RequestOrigin = {
  Kind: 'NotRecorded',
  SignInMethod: null,
  LinkIssuedBy: null,
  LinkIssuedFor: null,
  LinkIssuedTimestampUtc: null,
  ClientAddress: null,
  UserAgent: null,
};

/**
 * The context of a page of requests: seven reads whatever the number of requests (the requests with their enrolments,
 * then their people's push users, waiting requests, open reports, known addresses and Accounts grants, each for all
 * the people at once), never a read per row. `caller` is who asks: "the link was issued by you" depends on it.
 */
export async function requestContexts(
  db: Kysely<Database>,
  ids: readonly number[],
  caller: string,
): Promise<RequestContext[]> {
  const requests = await db
    .selectFrom('authorization_requests')
    .leftJoin('devices', 'devices.authorization_request_id', 'authorization_requests.id')
    .select([
      'authorization_requests.id',
      'authorization_requests.user_name',
      'authorization_requests.status',
      'authorization_requests.device_type',
      'authorization_requests.decided_at',
      'devices.push_message_user_id as own_push_user',
      'devices.enrolled_via',
      'devices.added_by as link_issued_by',
      'devices.link_issued_at',
      'devices.client_address',
      'devices.user_agent',
    ])
    .where('authorization_requests.id', 'in', ids)
    .execute();
  const found = new Set(requests.map((row) => row.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new ProblemError(
      404,
      'not-found',
      'Not found',
      `Authorization request${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'do' : 'does'} not exist.`,
    );
  }
  const keys = [...new Set(requests.map((row) => userKeyOf(row.user_name)))];
  // Requests are found by lower(user_name), the index migration 014 made; SQLite's lower() folds ASCII only, so the
  // key is compared again here.
  const [pushUsers, waiting, reports, known, grants] = await Promise.all([
    db
      .selectFrom('push_message_users')
      .leftJoin('devices', 'devices.push_message_user_id', 'push_message_users.id')
      .select((eb) => [
        'push_message_users.id',
        'push_message_users.user_key',
        'push_message_users.status',
        'push_message_users.device_type',
        'push_message_users.manufacturer',
        'push_message_users.model',
        'push_message_users.created_at',
        eb.fn.max('devices.last_seen_at').as('last_seen_at'),
        eb.fn.max('devices.client_address').as('client_address'),
      ])
      .where('push_message_users.user_key', 'in', keys)
      .where('push_message_users.status', '!=', PushUserStatusCode.Deleted)
      .groupBy([
        'push_message_users.id',
        'push_message_users.user_key',
        'push_message_users.status',
        'push_message_users.device_type',
        'push_message_users.manufacturer',
        'push_message_users.model',
        'push_message_users.created_at',
      ])
      .orderBy('push_message_users.id', 'desc')
      .execute(),
    db
      .selectFrom('authorization_requests')
      .leftJoin('devices', 'devices.authorization_request_id', 'authorization_requests.id')
      .select([
        'authorization_requests.id',
        'authorization_requests.user_name',
        'authorization_requests.device_type',
        'authorization_requests.manufacturer',
        'authorization_requests.model',
        'devices.last_seen_at',
        'devices.client_address',
      ])
      .where((eb) => eb(eb.fn('lower', ['authorization_requests.user_name']), 'in', keys))
      .where('authorization_requests.status', '=', 'Pending')
      .orderBy('authorization_requests.id', 'desc')
      .execute(),
    db
      .selectFrom('token_issues')
      .select((eb) => ['user_key', eb.fn.countAll<number | string>().as('open')])
      .where('user_key', 'in', keys)
      .where('reported_at', 'is not', null)
      .where('handled_at', 'is', null)
      .groupBy('user_key')
      .execute(),
    db.selectFrom('known_clients').select(['user_key', 'client_key']).where('user_key', 'in', keys).execute(),
    db
      .selectFrom('principals')
      .innerJoin('permission_grants', 'permission_grants.principal_id', 'principals.id')
      .select(['principals.user_key', 'permission_grants.permission'])
      .where('principals.user_key', 'in', keys)
      .where('permission_grants.entity', '=', ACCOUNTS_ENTITY)
      .where('principals.enabled', '=', 1)
      .execute(),
  ]);

  const openReports = new Map(reports.map((row) => [row.user_key, Number(row.open)]));
  const accountsGrants = new Map<string, string[]>();
  for (const row of grants)
    accountsGrants.set(row.user_key, [...(accountsGrants.get(row.user_key) ?? []), row.permission]);
  // Where each person was seen before: their sign-ins' addresses, and where their other devices enrolled from.
  const seenAt = new Map<string, Set<string>>();
  const see = (key: string, address: string | null) => {
    if (!address) return;
    const set = seenAt.get(key) ?? new Set<string>();
    set.add(clientKey(address));
    seenAt.set(key, set);
  };
  for (const row of known) see(row.user_key, row.client_key);
  for (const row of pushUsers) see(row.user_key, row.client_address);

  return ids.map((id) => {
    const row = requests.find((request) => request.id === id) as (typeof requests)[number];
    const key = userKeyOf(row.user_name);
    // The push user this request registered, once approved, is this device, not another one: its enrolment names it,
    // and a request without one (the demo console's) registered the push user made at its decision.
    const own = (user: (typeof pushUsers)[number]) =>
      row.own_push_user !== null
        ? user.id === row.own_push_user
        : row.status === 'Authorized' && user.created_at === row.decided_at && user.device_type === row.device_type;
    const others: OtherDevice[] = [
      ...pushUsers
        .filter((user) => user.user_key === key && !own(user))
        .map(
          (user): OtherDevice => ({
            State: user.status === PushUserStatusCode.Active ? 'Active' : 'Disabled',
            PushMessageUserId: user.id,
            AuthorizationRequestId: null,
            DeviceType: user.device_type,
            Manufacturer: user.manufacturer || null,
            Model: user.model || null,
            LastSeenTimestampUtc: user.last_seen_at ?? null,
          }),
        ),
      ...waiting
        .filter((request) => request.id !== id && userKeyOf(request.user_name) === key)
        .map(
          (request): OtherDevice => ({
            State: 'Waiting',
            PushMessageUserId: null,
            AuthorizationRequestId: request.id,
            DeviceType: request.device_type,
            Manufacturer: request.manufacturer || null,
            Model: request.model || null,
            LastSeenTimestampUtc: request.last_seen_at ?? null,
          }),
        ),
    ];
    const origin = originOf(row);
    const seenBefore = seenAt.get(key) ?? new Set<string>();
    const open = openReports.get(key) ?? 0;
    return {
      AuthorizationRequestId: id,
      UserName: row.user_name,
      Origin: origin,
      OtherDevices: others,
      OpenReports: open,
      Hints: hintsFor({
        userName: row.user_name,
        origin,
        others,
        seenBefore,
        accountsPermissions: accountsGrants.get(key) ?? [],
        openReports: open,
        caller,
      }),
    };
  });
}

function originOf(row: {
  user_name: string;
  enrolled_via: string | null;
  link_issued_by: string | null;
  link_issued_at: string | null;
  client_address: string | null;
  user_agent: string | null;
}): RequestOrigin {
  if (row.enrolled_via === null) return NOT_RECORDED;
  const link = row.enrolled_via === 'link';
  return {
    Kind: link ? 'Link' : 'SignedIn',
    SignInMethod: link ? null : row.enrolled_via === 'single-sign-on' ? 'SingleSignOn' : 'Password',
    LinkIssuedBy: link ? row.link_issued_by : null,
    LinkIssuedFor: link ? row.user_name : null,
    LinkIssuedTimestampUtc: link ? row.link_issued_at : null,
    ClientAddress: row.client_address,
    UserAgent: row.user_agent,
  };
}

function hintsFor({
  userName,
  origin,
  others,
  seenBefore,
  accountsPermissions,
  openReports,
  caller,
}: {
  userName: string;
  origin: RequestOrigin;
  others: readonly OtherDevice[];
  /** The client keys the person signed in or enrolled from before. */
  seenBefore: ReadonlySet<string>;
  accountsPermissions: readonly string[];
  openReports: number;
  caller: string;
}): ContextHint[] {
  const hints: ContextHint[] = [];
  const active = others.filter((device) => device.State === 'Active');
  if (others.length === 0) hints.push({ Kind: 'FirstDevice', Text: `First device for ${userName}` });
  if (active[0]) {
    const more = active.length > 1 ? ` and ${active.length - 1} more` : '';
    hints.push({
      Kind: 'HasActiveDevice',
      Text: `${userName} already has an Active ${deviceName(active[0])}${more}`,
    });
  }
  if (origin.ClientAddress && !seenBefore.has(clientKey(origin.ClientAddress))) {
    hints.push({ Kind: 'NewAddress', Text: `From an address never seen for ${userName}` });
  }
  if (origin.Kind === 'Link' && origin.LinkIssuedBy) {
    if (userKeyOf(origin.LinkIssuedBy) === userKeyOf(caller)) {
      hints.push({ Kind: 'LinkIssuedByYou', Text: 'The link was issued by you' });
    } else if (userKeyOf(origin.LinkIssuedBy) !== userKeyOf(userName)) {
      hints.push({
        Kind: 'LinkIssuedByOther',
        Text: `The link was issued by ${origin.LinkIssuedBy}, not by ${userName}`,
      });
    }
  }
  if (accountsPermissions.length > 0) {
    hints.push({
      Kind: 'HoldsAccountsPermissions',
      Text: `This person holds Accounts permissions (${[...accountsPermissions].sort().join(' and ')})`,
    });
  }
  if (openReports > 0) {
    hints.push({
      Kind: 'OpenReports',
      Text: `${userName} has ${openReports} open "This wasn't me" report${openReports > 1 ? 's' : ''}`,
    });
  }
  return hints;
}
