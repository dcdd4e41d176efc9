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
} from '../../../shared/contract/index.ts';
import { truncateTables } from '../../db/database.ts';
import { bumpRevision } from '../../db/list-revisions.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordAccountHistory } from '../accounts/account-history.ts';
import { revokeSessionsOf } from '../accounts/accounts.ts';
import { type Principal, upsertPrincipal, userKeyOf } from '../accounts/principals.ts';
import { insertAuthorizationRequest, toAuthorizationRequest } from '../consumer/authorization-requests.ts';
import { type ChangePublisher, writeAndPublish } from '../core/change-feed.ts';
import { EXTRA_DEMO_ACCOUNTS, seedExtraDemoAccounts } from './demo-accounts-data.ts';

const DEVICES = [
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPhone 16 Pro', OsVersion: '18.1' },
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPhone 15', OsVersion: '17.6.1' },
  { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPad Air', OsVersion: '18.0' },
  { DeviceType: 'Android', Manufacturer: 'Samsung', Model: 'Galaxy S24', OsVersion: '14' },
  { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15' },
  { DeviceType: 'Android', Manufacturer: 'Motorola', Model: 'Edge 50', OsVersion: '14' },
] as const;

const PEOPLE = [
  ['ACME\\alice.ng', 'alice.ng@acme.example'],
  ['ACME\\bram.de.vries', 'bram.devries@acme.example'],
  ['ACME\\chen.wei', 'chen.wei@acme.example'],
  ['ACME\\dana.okafor', 'dana.okafor@acme.example'],
  ['ACME\\emil.larsen', 'emil.larsen@acme.example'],
  ['ACME\\farah.haddad', 'farah.haddad@acme.example'],
  ['ACME\\gus.moreno', 'gus.moreno@acme.example'],
  ['ACME\\hana.sato', 'hana.sato@acme.example'],
  ['ACME\\ivan.petrov', 'ivan.petrov@acme.example'],
  ['ACME\\jo.mensah', 'jo.mensah@acme.example'],
  ['ACME\\kai.mueller', 'kai.mueller@acme.example'],
] as const;

const minutesAgo = (now: Date, minutes: number) => formatTimestamp(new Date(now.getTime() - minutes * 60_000));

/** The demo accounts of SPEC §3, with exactly the documented passwords and grants. */
export async function seedDemoPrincipals(db: Kysely<Database>, hashCost: number): Promise<void> {
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
      },
      hashCost,
    );
  }
  await seedExtraDemoAccounts(db, hashCost);
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

      const requests = PEOPLE.map(([userName, email], index) => {
        const device = DEVICES[index % DEVICES.length] ?? DEVICES[0];
        const created = minutesAgo(now, 60 * 24 * (PEOPLE.length - index) + 17 * index);
        // The first six are decided, the last five wait in the queue.
        const decided = index < 6;
        const status = !decided ? 'Pending' : index % 3 === 2 ? 'Rejected' : 'Authorized';
        const decidedAt = decided ? minutesAgo(now, 60 * 24 * (PEOPLE.length - index) - 90) : null;
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

      // Devices registered by an authorized request carry its description; the others registered otherwise (null).
      type Device = { manufacturer: string; model: string; os_version: string } | null;
      const { Active, Disabled, Deleted } = PushUserStatusCode;
      const pushUsers: ReadonlyArray<readonly [string, string, PushUserStatus, Device]> = [
        ['DEMO\\admin', 'iOS', Active, null],
        ['DEMO\\operator', 'Android', Active, null],
        ['DEMO\\helpdesk', 'iOS', Disabled, null],
        ...requests
          .filter((request) => request.status === 'Authorized')
          .map((request) => [request.user_name, request.device_type, Active, request] as const),
        ['ACME\\lena.fischer', 'Android', Disabled, null],
        ['ACME\\mo.tanaka', 'iOS', Deleted, null],
        ['ACME\\nora.quinn', 'Android', Deleted, null],
        ['ACME\\omar.farouk', 'iOS', Disabled, null],
      ];
      await trx
        .insertInto('push_message_users')
        .values(
          pushUsers.map(([userName, deviceType, status, device], index) => ({
            user_name: userName,
            user_key: userKeyOf(userName),
            device_type: deviceType,
            created_at: minutesAgo(now, 60 * 24 * (40 - index)),
            modified_at: minutesAgo(now, 60 * (30 - index)),
            status,
            manufacturer: device?.manufacturer ?? null,
            model: device?.model ?? null,
            os_version: device?.os_version ?? null,
          })),
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
  const device = pick(DEVICES);
  const [userName, email] = pick(PEOPLE);
  const now = formatTimestamp(clock());
  return writeAndPublish(
    db,
    changes,
    async (trx) => {
      const row = await insertAuthorizationRequest(
        trx,
        {
          userName: input.UserName ?? userName,
          userEmail: input.UserEmail ?? email,
          deviceType: input.DeviceType ?? device.DeviceType,
          manufacturer: input.Manufacturer ?? device.Manufacturer,
          model: input.Model ?? device.Model,
          osVersion: input.OsVersion ?? device.OsVersion,
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
