import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type AuthorizationRequest,
  type AuthorizationRequestStatus,
  DEMO_ACCOUNTS,
  type DemoAuthorizationRequestInput,
  type DemoPush,
  formatTimestamp,
  type PushUserStatus,
  PushUserStatusCode,
  parseTimestamp,
  statusName,
} from '../../../shared/contract/index.ts';
import { truncateTables } from '../../db/database.ts';
import { bumpRevision } from '../../db/list-revisions.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { insertAuthorizationRequest, toAuthorizationRequest } from '../consumer/authorization-requests.ts';
import { type ChangePublisher, writeAndPublish } from '../core/change-feed.ts';
import { recordAccountHistory } from '../identity/account-history.ts';
import { type Principal, upsertPrincipal, userKeyOf } from '../identity/principals.ts';
import { revokeSessionsOf } from '../identity/session-revocation.ts';
import { EXTRA_DEMO_ACCOUNTS, seedExtraDemoAccounts } from './demo-accounts-data.ts';
import { completeDemoDevice, completeDemoPerson, DEMO_DEVICES, DEMO_PEOPLE, type DemoDevice } from './demo-people.ts';

const minutesAgo = (now: Date, minutes: number) => formatTimestamp(new Date(now.getTime() - minutes * 60_000));
const aMinuteAfter = (stamp: string) => formatTimestamp(new Date((parseTimestamp(stamp)?.getTime() ?? 0) + 60_000));
const deviceAt = (index: number): DemoDevice => DEMO_DEVICES[index % DEMO_DEVICES.length] as DemoDevice;

/** A seeded push user: registered `registered` minutes ago (or at `registeredAt`), its status set `changed` ago. */
interface DemoPushUser {
  userName: string;
  device: DemoDevice;
  status: PushUserStatus;
  registered?: number;
  registeredAt?: string;
  registeredBy?: string;
  changed: number | null;
}

/** The demo accounts of SPEC §3, with exactly the documented passwords and grants. */
export async function seedDemoPrincipals(db: Kysely<Database>, clock: Clock, hashCost: number): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    await upsertPrincipal(
      db,
      {
        userName: account.userName,
        password: account.password,
        grants: [
          ...account.security.map((permission) => ({ entity: 'Security', permission })),
          ...account.accounts.map((permission) => ({ entity: 'Accounts', permission })),
        ],
        now: clock(),
      },
      hashCost,
    );
  }
  await seedExtraDemoAccounts(db, clock, hashCost);
}

/** The demo accounts' user keys: never usable while demo mode is off. */
export const DEMO_USER_KEYS: ReadonlySet<string> = new Set([
  ...DEMO_ACCOUNTS.map((account) => userKeyOf(account.userName)),
  ...EXTRA_DEMO_ACCOUNTS.map((account) => userKeyOf(account.userName)),
]);

/**
 * With demo mode off, the demo accounts a data folder may still hold from a demo run are disabled and their
 * sessions revoked: their passwords are published. Turning demo mode on again restores them.
 */
export async function retireDemoPrincipals(db: Kysely<Database>, clock: Clock): Promise<void> {
  const keys = [...DEMO_USER_KEYS];
  await writeTransaction(db, async (trx) => {
    await trx.updateTable('principals').set({ enabled: 0 }).where('user_key', 'in', keys).execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: formatTimestamp(clock()) })
      .where('revoked_at', 'is', null)
      .where('principal_id', 'in', trx.selectFrom('principals').select('id').where('user_key', 'in', keys))
      .execute();
  });
}

/**
 * With demo mode off, the accounts created while it was on are disabled and their sessions end: anyone could have
 * made them with the published DEMO\admin password. Each stays disabled until an account administrator enables it
 * with demo mode off (which clears its mark). `keepUserKey`: the ADMIN_USERNAME account, whose password and grants
 * the operator's settings reset at this start whoever first created it. Answers the names of the accounts disabled.
 */
export async function retireDemoCreatedAccounts(
  db: Kysely<Database>,
  clock: Clock,
  keepUserKey: string | null,
): Promise<string[]> {
  return writeTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('principals')
      .select(['id', 'user_name'])
      .where('created_in_demo', '=', 1)
      .where('enabled', '=', 1)
      .orderBy('user_key');
    if (keepUserKey !== null) query = query.where('user_key', '!=', keepUserKey);
    const rows = await query.execute();
    const now = clock();
    for (const row of rows) {
      await trx.updateTable('principals').set({ enabled: 0 }).where('id', '=', row.id).execute();
      await revokeSessionsOf(trx, row.id, now);
      await recordAccountHistory(trx, {
        principalId: row.id,
        userName: row.user_name,
        action: 'Disabled',
        detail: 'created while demo mode was on; disabled at a start with demo mode off, all sessions ended',
        changedBy: 'DEMO=off',
        at: now,
      });
    }
    return rows.map((row) => row.user_name);
  });
}

/**
 * Replaces requests, push users, instructions and pushes with the demo set. Sessions and accounts stay.
 * `changes`: null when seeding at start, before anyone listens.
 */
export async function resetDemoData(
  db: Kysely<Database>,
  clock: Clock,
  changes: ChangePublisher | null,
): Promise<void> {
  const now = clock();
  await writeAndPublish(
    db,
    changes,
    async (trx) => {
      // Enrolled devices go with the requests that enrolled them, and their events and codes with them.
      await truncateTables(trx, [
        'device_notices',
        'device_events',
        'devices',
        'pushes',
        'token_issues',
        'instructions',
        'history',
        'authorization_requests',
        'push_message_users',
      ]);

      const requests = DEMO_PEOPLE.map(([userName, email], index) => {
        const device = deviceAt(index);
        const created = minutesAgo(now, 60 * 24 * (DEMO_PEOPLE.length - index) + 17 * index);
        // The first six are decided, the last five wait in the queue.
        const decided = index < 6;
        const status = !decided ? 'Pending' : index % 3 === 2 ? 'Rejected' : 'Authorized';
        const decidedAt = decided ? minutesAgo(now, 60 * 24 * (DEMO_PEOPLE.length - index) - 90) : null;
        return {
          user_name: userName,
          user_email: email,
          request_guid: randomUUID(),
          device_type: device.DeviceType,
          manufacturer: device.Manufacturer,
          model: device.Model,
          os_version: device.OsVersion,
          created_at: created,
          modified_at: decidedAt ?? created,
          status: status as AuthorizationRequestStatus,
          comment: status === 'Rejected' ? 'Personal device not enrolled in MDM' : decided ? 'Verified by phone' : null,
          decided_by: decided ? 'DEMO\\admin' : null,
          decided_at: decidedAt,
        };
      });
      const inserted = await trx.insertInto('authorization_requests').values(requests).returning('id').execute();
      // Demo timelines start with the story so far: each request's arrival and, for decided ones, the decision.
      await trx
        .insertInto('history')
        .values(
          requests.flatMap((request, index) => {
            const id = inserted[index]?.id ?? 0;
            const created = {
              entity: 'AuthorizationRequest' as const,
              entity_id: id,
              action: 'Created' as const,
              from_state: null,
              to_state: 'Pending',
              comment: null,
              changed_by: request.user_name,
              changed_at: request.created_at,
            };
            if (request.status === 'Pending') return [created];
            return [
              created,
              {
                ...created,
                action: 'Decided' as const,
                from_state: 'Pending',
                to_state: request.status,
                comment: request.comment,
                changed_by: request.decided_by,
                changed_at: request.decided_at ?? request.created_at,
              },
            ];
          }),
        )
        .execute();

      // Every push user carries its phone's make and model, and a history that ends at its Last modified: registered
      // (an authorized request's device a minute after its approval), then for some a status change by the helpdesk.
      const { Active, Disabled, Deleted } = PushUserStatusCode;
      const DAY = 60 * 24;
      const registeredBy = (request: (typeof requests)[number]) => request.decided_by ?? 'DEMO\\admin';
      const pushUsers: readonly DemoPushUser[] = [
        { userName: 'DEMO\\admin', device: deviceAt(0), status: Active, registered: 40 * DAY, changed: null },
        { userName: 'DEMO\\operator', device: deviceAt(4), status: Active, registered: 38 * DAY, changed: null },
        { userName: 'DEMO\\helpdesk', device: deviceAt(1), status: Disabled, registered: 37 * DAY, changed: 5 * DAY },
        ...requests
          .filter((request) => request.status === 'Authorized' && request.decided_at !== null)
          .map((request) => ({
            userName: request.user_name,
            device: {
              DeviceType: request.device_type,
              Manufacturer: request.manufacturer,
              Model: request.model,
              OsVersion: request.os_version,
            },
            status: Active,
            registeredAt: aMinuteAfter(request.decided_at ?? request.created_at),
            registeredBy: registeredBy(request),
            changed: null,
          })),
        {
          userName: 'ACME\\lena.fischer',
          device: deviceAt(3),
          status: Disabled,
          registered: 30 * DAY,
          changed: 26 * 60,
        },
        { userName: 'ACME\\mo.tanaka', device: deviceAt(2), status: Deleted, registered: 28 * DAY, changed: 3 * DAY },
        { userName: 'ACME\\nora.quinn', device: deviceAt(5), status: Deleted, registered: 25 * DAY, changed: 9 * DAY },
        { userName: 'ACME\\omar.farouk', device: deviceAt(1), status: Disabled, registered: 21 * DAY, changed: 4 * 60 },
      ];
      const rows = pushUsers.map((user) => {
        const created = user.registeredAt ?? minutesAgo(now, user.registered ?? 0);
        return {
          user_name: user.userName,
          user_key: userKeyOf(user.userName),
          device_type: user.device.DeviceType,
          created_at: created,
          modified_at: user.changed === null ? created : minutesAgo(now, user.changed),
          status: user.status,
          manufacturer: user.device.Manufacturer,
          model: user.device.Model,
          os_version: user.device.OsVersion,
        };
      });
      const registered = await trx.insertInto('push_message_users').values(rows).returning('id').execute();
      await trx
        .insertInto('history')
        .values(
          rows.flatMap((row, index) => {
            const user = pushUsers[index];
            const entry = {
              entity: 'PushMessageUser' as const,
              entity_id: registered[index]?.id ?? 0,
              action: 'Registered' as const,
              from_state: null,
              to_state: statusName(Active),
              comment: null,
              changed_by: user?.registeredBy ?? 'DEMO\\admin',
              changed_at: row.created_at,
            };
            if (row.status === Active) return [entry];
            return [
              entry,
              {
                ...entry,
                action: 'StatusChanged' as const,
                from_state: statusName(Active),
                to_state: statusName(row.status),
                comment: row.status === Deleted ? 'Phone replaced' : 'Reported lost',
                changed_by: 'DEMO\\helpdesk',
                changed_at: row.modified_at,
              },
            ];
          }),
        )
        .execute();
      await bumpRevision(trx, 'authorization_requests');
      await bumpRevision(trx, 'push_message_users');
    },
    () => ({ Type: 'reset' }),
  );
}

/** Seeds demo data on first start only; later starts keep what people did. */
export async function seedDemoDataIfEmpty(db: Kysely<Database>, clock: Clock): Promise<void> {
  const { count } = await db
    .selectFrom('authorization_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) === 0) await resetDemoData(db, clock, null);
}

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;

/** Demo actor: a mobile device asks to be authorized; anything not given is made up. */
export async function createDemoAuthorizationRequest(
  db: Kysely<Database>,
  clock: Clock,
  input: DemoAuthorizationRequestInput,
  caller: Principal,
  changes: ChangePublisher,
): Promise<AuthorizationRequest> {
  const device = completeDemoDevice(input, pick);
  const person = completeDemoPerson(input, pick);
  const now = formatTimestamp(clock());
  return writeAndPublish(
    db,
    changes,
    async (trx) => {
      const row = await insertAuthorizationRequest(
        trx,
        {
          userName: person.UserName,
          userEmail: person.UserEmail,
          deviceType: device.DeviceType,
          manufacturer: device.Manufacturer,
          model: device.Model,
          osVersion: device.OsVersion,
        },
        // The person playing the device, not the owner they claim: the history never takes a name on trust.
        caller.userName,
        now,
      );
      return toAuthorizationRequest(row);
    },
    (created) => ({ Type: 'authorization-request', Id: created.Id, Status: 'Pending', ChangedBy: caller.userName }),
  );
}

/** Demo actor: the pushes delivered to the caller's own devices, newest first. */
export async function listDemoPushes(db: Kysely<Database>, caller: Principal): Promise<DemoPush[]> {
  const rows = await db
    .selectFrom('pushes')
    .innerJoin('push_message_users', 'push_message_users.id', 'pushes.push_message_user_id')
    .select([
      'pushes.id',
      'pushes.push_message_user_id',
      'push_message_users.device_type',
      'pushes.instruction_id',
      'pushes.scheduled',
      'pushes.token',
      'pushes.sent_at',
    ])
    .where('push_message_users.user_key', '=', caller.userKey)
    .orderBy('pushes.id', 'desc')
    .limit(50)
    .execute();
  return rows.map((row) => ({
    Id: row.id,
    PushMessageUserId: row.push_message_user_id,
    DeviceType: row.device_type,
    InstructionId: row.instruction_id,
    Scheduled: row.scheduled === 1,
    Token: row.token ?? '',
    SentTimestampUtc: row.sent_at,
  }));
}
