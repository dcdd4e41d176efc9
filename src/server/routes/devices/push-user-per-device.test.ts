import { type Generated, type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DevicePushList, HistoryList, Instruction, PushMessageUserDetail } from '../../../shared/contract/index.ts';
import { migrateToLatest, openDatabase } from '../../db/database.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import type { Database } from '../../db/schema.ts';
import {
  approvedDevice,
  browserSubscription,
  createRealDeployment,
  deviceCall,
  deviceStateOf,
  PUSH_ORIGIN,
  type RecordingPushSender,
  setPushUserStatus,
} from '../../test/device-helpers.ts';
import { expectProblem, parseBody, type TestApp } from '../../test/harness.ts';
import { createTestDatabase, testDatabaseServer } from '../../test/test-database.ts';

/**
 * One push message user per device, from the attacker's side: Bob's Android phone is lost and Disabled by the
 * helpdesk; Bob enrols a new Android phone and an admin approves it. The lost phone, still holding a working
 * credential, must stay Disabled and receive nothing, and do nothing either.
 */
const BOB = ['ACME\\bob', 'Bob keeps a long passphrase'] as const;
const ANDROID = { DeviceType: 'Android', Manufacturer: 'Samsung', Model: 'Galaxy S23', OsVersion: '14' };
const NEW_ANDROID = { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15' };

/** Bob, an ordinary person of a deployment with demo mode off (createRealDeployment), signed in. */
async function deployment(): Promise<{ t: TestApp; sender: RecordingPushSender; admin: string; bob: string }> {
  const created = await createRealDeployment([BOB]);
  return { ...created, bob: await created.t.login(...BOB) };
}

/** Bob's phone: enrolled, approved, subscribed to Web Push. */
const phone = (t: TestApp, admin: string, bob: string, body: Record<string, unknown>) =>
  approvedDevice(t, admin, { token: bob }, body);

const pushUser = async (t: TestApp, admin: string, id: number) =>
  parseBody(
    await t.call({ method: 'GET', url: `/api/Consumer/PushMessageUsers/${id}`, token: admin }),
    PushMessageUserDetail,
  );

const inbox = (t: TestApp, deviceToken: string) =>
  deviceCall(t, deviceToken, { method: 'GET', url: '/api/Device/Pushes' });

describe('one push message user per device', () => {
  it('approving a new phone leaves the lost (Disabled) phone Disabled; only the new one gets the code', async () => {
    const { t, sender, admin, bob } = await deployment();
    try {
      const lost = await phone(t, admin, bob, ANDROID);
      await setPushUserStatus(t, admin, lost.pushUserId, 2);
      t.clock.advanceMinutes(5);
      const replacement = await phone(t, admin, bob, NEW_ANDROID);

      // Two registrations, each with its own Id, device and status.
      expect(replacement.pushUserId).not.toBe(lost.pushUserId);
      expect(await pushUser(t, admin, lost.pushUserId)).toMatchObject({ Status: 2, Model: 'Galaxy S23' });
      expect(await pushUser(t, admin, replacement.pushUserId)).toMatchObject({ Status: 1, Model: 'Pixel 9' });
      expect((await deviceStateOf(t, lost.DeviceToken)).PushMessageUserStatus).toBe(2);
      // The lost phone's history is its own: registered, then Disabled; the new phone's approval is not in it.
      const history = parseBody(
        await t.call({
          method: 'GET',
          url: `/api/Consumer/History?entity=PushMessageUser&id=${lost.pushUserId}`,
          token: admin,
        }),
        HistoryList,
      );
      expect(history.map((entry) => [entry.Action, entry.From, entry.To])).toEqual([
        ['Registered', null, 'Active'],
        ['StatusChanged', 'Active', 'Disabled'],
      ]);

      const created = await t.call({
        method: 'POST',
        url: '/api/Instructions',
        token: bob,
        payload: { Name: 'Patch' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const instruction = parseBody(created, Instruction);
      // Counted as delivered: one device, the one that got it.
      expect(instruction.DevicesNotified).toBe(1);
      await sender.settled();
      expect(sender.sent.flatMap((sent) => sent.targets.map((target) => target.subscription.endpoint))).toEqual([
        replacement.subscription.endpoint,
      ]);
      const received = parseBody(await inbox(t, replacement.DeviceToken), DevicePushList);
      expect(received.map((push) => push.InstructionId)).toEqual([instruction.Id]);
      expect(await t.database.db.selectFrom('device_events').select('device_id').distinct().execute()).toEqual([
        { device_id: (await deviceIdOf(t, replacement.DeviceToken)) as number },
      ]);
    } finally {
      await t.close();
    }
  });

  it('a Disabled device reads only its own state: no inbox, no report, no subscription change (403 device-disabled)', async () => {
    const { t, admin, bob } = await deployment();
    try {
      const lost = await phone(t, admin, bob, ANDROID);
      const other = await phone(t, admin, bob, NEW_ANDROID);
      const created = parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: bob, payload: { Name: 'Patch' } }),
        Instruction,
      );
      expect(created.DevicesNotified).toBe(2);
      await setPushUserStatus(t, admin, lost.pushUserId, 2);

      expectProblem(await inbox(t, lost.DeviceToken), 403, 'device-disabled');
      // "This wasn't me" from a lost phone would sign its person out everywhere.
      const report = await deviceCall(t, lost.DeviceToken, {
        method: 'POST',
        url: `/api/Device/Pushes/${created.Id}/Report`,
      });
      expectProblem(report, 403, 'device-disabled');
      expect(
        (await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: bob })).statusCode,
      ).toBe(200);
      const moved = await deviceCall(t, lost.DeviceToken, {
        method: 'PUT',
        url: '/api/Device/PushSubscription',
        payload: browserSubscription(`${PUSH_ORIGIN}/push/elsewhere`),
      });
      expectProblem(moved, 403, 'device-disabled');
      expectProblem(
        await deviceCall(t, lost.DeviceToken, { method: 'DELETE', url: '/api/Device/PushSubscription' }),
        403,
        'device-disabled',
      );
      expect((await deviceStateOf(t, lost.DeviceToken)).PushEndpoint).toBe(lost.subscription.endpoint);
      // The other phone of the same person and type is untouched.
      expect(parseBody(await inbox(t, other.DeviceToken), DevicePushList)).toHaveLength(1);

      // Active again: it receives and acts again.
      await setPushUserStatus(t, admin, lost.pushUserId, 1);
      expect(parseBody(await inbox(t, lost.DeviceToken), DevicePushList)).toHaveLength(1);
      const again = parseBody(
        await t.call({ method: 'POST', url: `/api/Instructions/${created.Id}/Token`, token: bob }),
        Instruction,
      );
      expect(again.DevicesNotified).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('a push user says which device it is: model, OS, when it enrolled and when it was last seen', async () => {
    const { t, admin, bob } = await deployment();
    try {
      const enrolledAt = t.clock.stamp();
      const lost = await phone(t, admin, bob, ANDROID);
      expect(await pushUser(t, admin, lost.pushUserId)).toMatchObject({
        Manufacturer: 'Samsung',
        Model: 'Galaxy S23',
        OsVersion: '14',
        EnrolledTimestampUtc: enrolledAt,
        LastSeenTimestampUtc: enrolledAt,
      });
      t.clock.advanceMinutes(20);
      await deviceStateOf(t, lost.DeviceToken);
      expect((await pushUser(t, admin, lost.pushUserId)).LastSeenTimestampUtc).toBe(t.clock.stamp());
      // Within the minute a call is not written again.
      t.clock.advanceMinutes(0.5);
      await deviceStateOf(t, lost.DeviceToken);
      expect((await pushUser(t, admin, lost.pushUserId)).LastSeenTimestampUtc).not.toBe(t.clock.stamp());
      // A person's registrations, each with its device, for a page about that person.
      const second = await phone(t, admin, bob, NEW_ANDROID);
      const { listPushUsersOfPerson } = await import('../../domain/consumer/push-users.ts');
      const ofBob = await listPushUsersOfPerson(t.database.db, 'acme\\BOB');
      expect(ofBob.map((user) => [user.Id, user.Model])).toEqual([
        [lost.pushUserId, 'Galaxy S23'],
        [second.pushUserId, 'Pixel 9'],
      ]);
    } finally {
      await t.close();
    }
  });

  it('DevicesNotified counts devices that got the code: not a device ended with its person disabled', async () => {
    const { t, admin, bob } = await deployment();
    try {
      await phone(t, admin, bob, ANDROID);
      const accounts = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin });
      const bobId = (accounts.json() as Array<{ Id: number; UserName: string }>).find((a) => a.UserName === BOB[0])?.Id;
      const setEnabled = (Enabled: boolean) =>
        t.call({ method: 'PUT', url: `/api/Admin/Accounts/${bobId}/Enabled`, token: admin, payload: { Enabled } });
      expect((await setEnabled(false)).statusCode).toBe(200);
      expect((await setEnabled(true)).statusCode).toBe(200);
      // The phone's credential ended for good; its registration still says Active, yet nothing can reach it.
      const fresh = await t.login(...BOB);
      expectProblem(
        await t.call({ method: 'POST', url: '/api/Instructions', token: fresh, payload: { Name: 'Patch' } }),
        409,
        'no-active-device',
      );
      const next = await phone(t, admin, fresh, NEW_ANDROID);
      const created = parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: fresh, payload: { Name: 'Patch' } }),
        Instruction,
      );
      expect(created.DevicesNotified).toBe(1);
      expect(parseBody(await inbox(t, next.DeviceToken), DevicePushList)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

async function deviceIdOf(t: TestApp, deviceToken: string): Promise<number | undefined> {
  const { createHash } = await import('node:crypto');
  const row = await t.database.db
    .selectFrom('devices')
    .select('id')
    .where('credential_hash', '=', createHash('sha256').update(deviceToken).digest('hex'))
    .executeTakeFirst();
  return row?.id;
}

describe('migration 010: a database where devices shared a push user', () => {
  it('splits each shared push user, every device keeping the status it effectively had', async () => {
    const handle = testDatabaseServer()
      ? await createTestDatabase(testDatabaseServer() as string)
      : { url: null, drop: async () => undefined };
    const database = openDatabase(handle.url ? { databaseUrl: handle.url } : { sqliteFile: ':memory:' });
    try {
      const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
      expect((await migrator.migrateTo('008-devices')).error).toBeUndefined();
      const db = database.db as unknown as Kysely<Before>;
      const { id: bob } = await db
        .insertInto('principals')
        .values({ user_name: BOB[0], user_key: BOB[0].toLowerCase(), password_hash: '', enabled: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Bob's push user for Android: registered by the lost phone (09:00), Disabled (10:00), revived by the new
      // phone's approval (11:00), which described it since. A third phone, removed, had shared it too.
      const { id: shared } = await db
        .insertInto('push_message_users')
        .values({
          user_name: BOB[0],
          user_key: BOB[0].toLowerCase(),
          device_type: 'Android',
          created_at: '2026-11-01 09:00:00.000',
          modified_at: '2026-11-01 11:00:00.000',
          status: 1,
          manufacturer: 'Google',
          model: 'Pixel 9',
          os_version: '15',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const device = async (model: string, decidedAt: string, endedAt: string | null) => {
        const request = await db
          .insertInto('authorization_requests')
          .values({
            user_name: BOB[0],
            user_email: '',
            request_guid: `guid-${model}`,
            device_type: 'Android',
            manufacturer: 'Maker',
            model,
            os_version: '14',
            created_at: decidedAt,
            modified_at: decidedAt,
            status: 'Authorized',
            comment: null,
            decided_by: 'ACME\\admin',
            decided_at: decidedAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const { id } = await db
          .insertInto('devices')
          .values({
            principal_id: bob,
            authorization_request_id: request.id,
            push_message_user_id: shared,
            credential_hash: `hash-${model}`,
            created_at: decidedAt,
            ended_at: endedAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return id;
      };
      const removed = await device('Old', '2026-11-01 08:00:00.000', '2026-11-01 08:30:00.000');
      const lost = await device('Galaxy S23', '2026-11-01 09:00:00.000', null);
      const replacement = await device('Pixel 9', '2026-11-01 11:00:00.000', null);
      await db
        .insertInto('history')
        .values(
          [
            ['Registered', null, 'Active', '2026-11-01 09:00:00.001'],
            ['StatusChanged', 'Active', 'Disabled', '2026-11-01 10:00:00.000'],
            ['Registered', 'Disabled', 'Active', '2026-11-01 11:00:00.001'],
          ].map(([action, from, to, at]) => ({
            entity: 'PushMessageUser',
            entity_id: shared,
            action: action as string,
            from_state: from,
            to_state: to as string,
            comment: null,
            changed_by: 'ACME\\admin',
            changed_at: at as string,
          })),
        )
        .execute();
      // A code the lost phone could still read: copied with its registration, so Active again would show it.
      await db
        .insertInto('pushes')
        .values({
          push_message_user_id: shared,
          instruction_id: 1,
          scheduled: 0,
          token: '123456',
          sent_at: '2026-11-01 11:30:00.000',
        })
        .execute();

      await migrateToLatest(database);

      const rows = await database.db
        .selectFrom('devices')
        .innerJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
        .select([
          'devices.id',
          'push_message_users.id as pushUserId',
          'push_message_users.status',
          'push_message_users.model',
        ])
        .orderBy('devices.id')
        .execute();
      const of = (id: number) => rows.find((row) => row.id === id);
      expect(new Set(rows.map((row) => row.pushUserId)).size).toBe(3);
      // The phone registered last keeps the row and its status; the lost one is Disabled again; the removed one Deleted.
      expect(of(replacement)).toMatchObject({ pushUserId: shared, status: 1, model: 'Pixel 9' });
      expect(of(lost)).toMatchObject({ status: 2, model: 'Galaxy S23' });
      expect(of(removed)).toMatchObject({ status: 3, model: 'Old' });
      const codes = await database.db.selectFrom('pushes').select(['push_message_user_id', 'token']).execute();
      expect(codes.map((code) => code.push_message_user_id).sort()).toEqual(
        [shared, of(lost)?.pushUserId, of(removed)?.pushUserId].sort(),
      );
      // No key on (person, device type) any more: a fourth Android registration of Bob's is a row of its own.
      await database.db
        .insertInto('push_message_users')
        .values({
          user_name: BOB[0],
          user_key: BOB[0].toLowerCase(),
          device_type: 'Android',
          created_at: '2026-11-02 09:00:00.000',
          modified_at: '2026-11-02 09:00:00.000',
          status: 1,
        })
        .execute();
      // The devices still reference their push users (SQLite rebuilt the table under them).
      await expect(
        database.db.updateTable('devices').set({ push_message_user_id: 9999 }).where('id', '=', lost).execute(),
      ).rejects.toThrow();
    } finally {
      await database.close();
      await handle.drop();
    }
  });
});

/** The tables as migration 008 left them, for writing a database from before one push user per device. */
interface Before {
  principals: { id: Generated<number>; user_name: string; user_key: string; password_hash: string; enabled: number };
  push_message_users: {
    id: Generated<number>;
    user_name: string;
    user_key: string;
    device_type: string;
    created_at: string;
    modified_at: string;
    status: number;
    manufacturer: string | null;
    model: string | null;
    os_version: string | null;
  };
  authorization_requests: Omit<Database['authorization_requests'], 'status'> & { status: string };
  devices: {
    id: Generated<number>;
    principal_id: number;
    authorization_request_id: number;
    push_message_user_id: number | null;
    credential_hash: string;
    created_at: string;
    ended_at: string | null;
  };
  history: {
    id: Generated<number>;
    entity: string;
    entity_id: number;
    action: string;
    from_state: string | null;
    to_state: string;
    comment: string | null;
    changed_by: string | null;
    changed_at: string;
  };
  pushes: {
    id: Generated<number>;
    push_message_user_id: number;
    instruction_id: number;
    scheduled: number;
    token: string | null;
    sent_at: string;
  };
}
