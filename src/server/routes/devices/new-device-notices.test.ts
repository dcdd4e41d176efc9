import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AccountHistoryList,
  type DeviceEnrollmentResult,
  DeviceEvent,
  DeviceNoticeList,
  EnrollmentLink,
  IssuedTemporaryCode,
  type NewDeviceNotice,
} from '../../../shared/contract/index.ts';
import { dialectOf } from '../../db/database.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import {
  ACME_ADMIN,
  type ApprovedDevice,
  approvedDevice,
  decide,
  deviceCall,
  deviceStateOf,
  enrollDevice,
  REAL_DEPLOYMENT,
  RecordingPushSender,
  setPushUserStatus,
} from '../../test/device-helpers.ts';
import { expectProblem, parseBody, type TestApp, useTestApp } from '../../test/harness.ts';

/**
 * A person's other Active devices are told when a device is enrolled for them and when it is approved: in their
 * notices, on their live stream and by Web Push. Whoever knows the password (or holds a link) can enrol a phone; the
 * person learns of it on the phone they already have, and "This wasn't me" there ends the intruder's device.
 */
const BOB = ['ACME\\bob', 'Bob keeps a long passphrase'] as const;
const EVE = ['ACME\\eve', 'Eve keeps a long passphrase'] as const;
const PIXEL = { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15' };
const INTRUDER = { DeviceType: 'Android', Manufacturer: 'Samsung', Model: 'Galaxy S24', OsVersion: 'Android 15' };

describe('the other devices are told of a new device', () => {
  const sender = new RecordingPushSender();
  const lines = new AuditLines();
  const { t } = useTestApp({
    config: REAL_DEPLOYMENT,
    options: { pushSender: sender, auditSink: lines },
  });
  let admin: string;
  let bob: string;
  beforeEach(async () => {
    sender.notices.length = 0;
    lines.clear();
    await t.addPrincipal(BOB[0], BOB[1], []);
    await t.addPrincipal(EVE[0], EVE[1], []);
    admin = await t.login(...ACME_ADMIN);
    bob = await t.login(...BOB);
  });

  /** A phone of its person: enrolled signed in, approved, subscribed to Web Push. */
  const approvedPhone = (token: string, body: Record<string, unknown> = PIXEL) =>
    approvedDevice(t, admin, { token }, body);

  const notices = async (device: DeviceEnrollmentResult) => {
    const response = await deviceCall(t, device.DeviceToken, { method: 'GET', url: '/api/Device/Notices' });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, DeviceNoticeList).filter(
      (notice): notice is NewDeviceNotice => notice.Kind !== 'temporary-code',
    );
  };

  const setStatus = (device: ApprovedDevice, Status: number) => setPushUserStatus(t, admin, device.pushUserId, Status);

  /** An enrolment through a link Bob's session made: whoever holds the link needs no password on the phone. */
  async function intruderPhone() {
    const link = parseBody(
      await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token: bob }),
      EnrollmentLink,
    );
    return enrollDevice(t, { code: link.Code }, INTRUDER);
  }

  const pushedTo = () =>
    sender.notices.map(({ targets, notice }) => [notice.kind, targets.map((target) => target.subscription.endpoint)]);

  it('enrolled and approved: Active devices of the person get a notice, a push and a stream event; no other does', async () => {
    const phone = await approvedPhone(bob);
    const lost = await approvedPhone(bob, { ...PIXEL, Model: 'Pixel 7' });
    await setStatus(lost, 2);
    const waiting = await enrollDevice(t, { token: bob }, { DeviceType: 'iOS', Model: 'iPad' });
    const eves = await approvedPhone(await t.login(...EVE));
    sender.notices.length = 0;

    const stream = await openStream(t, phone.DeviceToken);
    try {
      await stream.until((event) => event.Type === 'device');
      const intruder = await intruderPhone();

      const [enrolled] = await notices(phone);
      expect(enrolled).toMatchObject({
        Kind: 'enrolled',
        AuthorizationRequestId: intruder.AuthorizationRequestId,
        DeviceType: 'Android',
        Manufacturer: 'Samsung',
        Model: 'Galaxy S24',
        OsVersion: 'Android 15',
        RequestStatus: 'Pending',
        ReportedTimestampUtc: null,
      });
      expect(enrolled?.NoticeTimestampUtc).toBe(enrolled?.EnrolledTimestampUtc);
      const heard = await stream.until((event) => event.Type === 'notice');
      expect(heard).toEqual({ Type: 'notice', Notice: enrolled });
      expect(pushedTo()).toEqual([['enrolled', [phone.subscription.endpoint]]]);
      expect(sender.notices[0]?.notice).toMatchObject({ device: 'Samsung Galaxy S24 (Android 15), Android' });

      await decide(t, admin, intruder);
      const [approved, first] = await notices(phone);
      expect(approved).toMatchObject({ Kind: 'approved', RequestStatus: 'Authorized' });
      // The earlier notice reads where the enrolment stands now.
      expect(first).toMatchObject({ Id: enrolled?.Id, Kind: 'enrolled', RequestStatus: 'Authorized' });
      expect(await stream.until((event) => event.Type === 'notice' && event.Notice.Kind === 'approved')).toEqual({
        Type: 'notice',
        Notice: approved,
      });
      expect(pushedTo()).toEqual([
        ['enrolled', [phone.subscription.endpoint]],
        ['approved', [phone.subscription.endpoint]],
      ]);
    } finally {
      await stream.close();
    }

    // A Disabled device heard nothing, and finds nothing once Active again; a waiting one has no notices to read.
    expectProblem(
      await deviceCall(t, lost.DeviceToken, { method: 'GET', url: '/api/Device/Notices' }),
      403,
      'device-disabled',
    );
    await setStatus(lost, 1);
    expect(await notices(lost)).toEqual([]);
    expectProblem(
      await deviceCall(t, waiting.DeviceToken, { method: 'GET', url: '/api/Device/Notices' }),
      403,
      'device-not-approved',
    );
    // Someone else's devices are told nothing of Bob's.
    expect(await notices(eves)).toEqual([]);
    expect((await deviceCall(t, 'not-a-credential', { method: 'GET', url: '/api/Device/Notices' })).statusCode).toBe(
      401,
    );
  });

  it('a temporary code issued: each Active device of the person hears who and until when, never the code', async () => {
    const phone = await approvedPhone(bob);
    const tablet = await approvedPhone(bob, { ...PIXEL, Model: 'Pixel Tablet' });
    const lost = await approvedPhone(bob, { ...PIXEL, Model: 'Pixel 7' });
    await setStatus(lost, 2);
    // Another person's phone, which must hear nothing.
    await approvedPhone(await t.login(...EVE));
    sender.notices.length = 0;

    const stream = await openStream(t, phone.DeviceToken);
    try {
      await stream.until((event) => event.Type === 'device');
      const issued = await t.call({
        method: 'POST',
        url: `/api/People/${encodeURIComponent(BOB[0])}/TemporaryCodes`,
        token: admin,
        payload: { ValidMinutes: 90, Uses: 2 },
      });
      expect(issued.statusCode, issued.body).toBe(201);
      const code = parseBody(issued, IssuedTemporaryCode);
      const digits = code.Code.replace(/\s/g, '');

      const heard = await stream.until((event) => event.Type === 'notice');
      const expected = {
        Kind: 'temporary-code',
        TemporaryCodeId: code.Id,
        IssuedBy: ACME_ADMIN[0],
        NoticeTimestampUtc: code.IssuedUtc,
        ValidUntilUtc: code.ExpiresUtc,
      };
      expect(heard).toEqual({ Type: 'notice', Notice: { Id: expect.any(Number), ...expected } });
      // Newest first, before the notices of the tablet's and the lost phone's enrolments.
      const listed = await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Notices' });
      const [notice] = parseBody(listed, DeviceNoticeList);
      expect(notice).toEqual(heard.Type === 'notice' && heard.Notice);
      const onTablet = await deviceCall(t, tablet.DeviceToken, { method: 'GET', url: '/api/Device/Notices' });
      expect(parseBody(onTablet, DeviceNoticeList)[0]).toMatchObject(expected);
      // Neither the inbox, the stream nor the Web Push carries the code, in any grouping.
      for (const text of [listed.body, onTablet.body, JSON.stringify(heard), JSON.stringify(sender.notices)]) {
        expect(text).not.toContain(digits);
        expect(text).not.toContain(code.Code);
      }
      expect(pushedTo()).toEqual([['temporary-code', [phone.subscription.endpoint, tablet.subscription.endpoint]]]);
      expect(sender.notices[0]?.notice).toMatchObject({ issuedBy: ACME_ADMIN[0], temporaryCodeId: code.Id });
      // Only the person's Active devices: not the Disabled one, nor another person's.
      const told = await t.database.db
        .selectFrom('device_notices')
        .innerJoin('devices', 'devices.id', 'device_notices.device_id')
        .select('devices.authorization_request_id')
        .where('device_notices.temporary_code_id', '=', code.Id)
        .orderBy('devices.id')
        .execute();
      expect(told.map((row) => row.authorization_request_id)).toEqual([
        phone.AuthorizationRequestId,
        tablet.AuthorizationRequestId,
      ]);
      // Nothing to report from the device: the report is for a device, and this notice names none.
      expectProblem(
        await deviceCall(t, phone.DeviceToken, { method: 'POST', url: `/api/Device/Notices/${notice?.Id}/Report` }),
        404,
        'not-found',
      );
    } finally {
      await stream.close();
    }
  });

  it('"This wasn\'t me" on a waiting device: it is rejected, Bob\'s sessions and links end, admins see it', async () => {
    const phone = await approvedPhone(bob);
    const intruder = await intruderPhone();
    const spare = parseBody(
      await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token: bob }),
      EnrollmentLink,
    );
    const [notice] = await notices(phone);
    if (!notice) throw new Error('no notice');

    // Another person's device cannot report Bob's notice, nor learn that it exists.
    const eves = await approvedPhone(await t.login(...EVE));
    expectProblem(
      await deviceCall(t, eves.DeviceToken, { method: 'POST', url: `/api/Device/Notices/${notice.Id}/Report` }),
      404,
      'not-found',
    );
    expect((await deviceStateOf(t, intruder.DeviceToken)).RequestStatus).toBe('Pending');

    const report = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Notices/${notice.Id}/Report`,
    });
    expect(report.statusCode, report.body).toBe(204);
    expect(await deviceStateOf(t, intruder.DeviceToken)).toMatchObject({
      RequestStatus: 'Rejected',
      Comment: expect.stringMatching(/new device was reported/),
    });
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: bob }),
      401,
      'unauthenticated',
    );
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Device/Enrollments',
        payload: { DeviceType: 'iOS', EnrollmentCode: spare.Code },
      }),
      401,
      'enrollment-code-invalid',
    );
    const [reported] = await notices(phone);
    expect(reported).toMatchObject({
      Id: notice.Id,
      RequestStatus: 'Rejected',
      ReportedTimestampUtc: expect.any(String),
    });
    // The phone that reported stays approved.
    expect((await deviceStateOf(t, phone.DeviceToken)).RequestStatus).toBe('Authorized');

    const history = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Accounts/History', token: admin }),
      AccountHistoryList,
    );
    expect(history.find((entry) => entry.Action === 'DeviceReported')).toMatchObject({
      UserName: BOB[0],
      Detail: expect.stringContaining('Samsung Galaxy S24 (Android 15), Android'),
    });
    // Eve's attempt is audited as refused; Bob's report names the reported device's enrolment.
    expect(
      lines.of('device-reported').map((line) => [line.event.outcome, line.user?.name, line.tachyon?.entity?.id]),
    ).toEqual([
      ['failure', EVE[0], undefined],
      ['success', BOB[0], intruder.AuthorizationRequestId],
    ]);
    // Twice changes nothing more.
    const again = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Notices/${notice.Id}/Report`,
    });
    expect(again.statusCode).toBe(204);
    expect((await notices(phone))[0]?.ReportedTimestampUtc).toBe(reported?.ReportedTimestampUtc);
  });

  it('"This wasn\'t me" on an approved device: it is removed (Deleted, its credential ended)', async () => {
    const phone = await approvedPhone(bob);
    const intruder = await intruderPhone();
    await decide(t, admin, intruder);
    const [approved] = await notices(phone);
    expect(approved?.Kind).toBe('approved');
    const report = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Notices/${approved?.Id}/Report`,
    });
    expect(report.statusCode, report.body).toBe(204);
    expectProblem(
      await deviceCall(t, intruder.DeviceToken, { method: 'GET', url: '/api/Device' }),
      401,
      'device-ended',
    );
    expect((await deviceStateOf(t, phone.DeviceToken)).PushMessageUserStatus).toBe(1);
  });

  it('"This wasn\'t me" is one change: a failure while removing the device leaves nothing half-done', async () => {
    const phone = await approvedPhone(bob);
    const intruder = await intruderPhone();
    await decide(t, admin, intruder);
    const waiting = await enrollDevice(t, { token: bob }, { DeviceType: 'iOS', Model: 'iPad' });
    const [approved] = (await notices(phone)).filter((notice) => notice.Kind === 'approved');
    const report = () =>
      deviceCall(t, phone.DeviceToken, { method: 'POST', url: `/api/Device/Notices/${approved?.Id}/Report` });

    // The database refuses to make any push user Deleted, as a crash at that moment would leave it.
    await refuseDeletedPushUsers(t);
    try {
      expectProblem(await report(), 500, 'internal');
    } finally {
      await allowDeletedPushUsers(t);
    }
    // Nothing of the report stayed: not the report itself, nor the ended sessions, nor the rejected enrolment.
    expect((await notices(phone)).find((notice) => notice.Id === approved?.Id)?.ReportedTimestampUtc).toBeNull();
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: bob })).statusCode).toBe(
      200,
    );
    expect((await deviceStateOf(t, waiting.DeviceToken)).RequestStatus).toBe('Pending');
    expect((await deviceStateOf(t, intruder.DeviceToken)).PushMessageUserStatus).toBe(1);

    // So the person can report it again, and this time the intruder's phone goes for good.
    expect((await report()).statusCode).toBe(204);
    expectProblem(
      await deviceCall(t, intruder.DeviceToken, { method: 'GET', url: '/api/Device' }),
      401,
      'device-ended',
    );
    expect((await deviceStateOf(t, waiting.DeviceToken)).RequestStatus).toBe('Rejected');
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: bob }),
      401,
      'unauthenticated',
    );
  });

  it('refuses a malformed notice id and an unknown one, in words', async () => {
    const phone = await approvedPhone(bob);
    expectProblem(
      await deviceCall(t, phone.DeviceToken, { method: 'POST', url: '/api/Device/Notices/abc/Report' }),
      400,
      'validation',
    );
    expectProblem(
      await deviceCall(t, phone.DeviceToken, { method: 'POST', url: '/api/Device/Notices/999/Report' }),
      404,
      'not-found',
    );
  });
});

/** A fault at the moment a push user would become Deleted: the statement fails, on either database. */
async function refuseDeletedPushUsers(t: TestApp): Promise<void> {
  const db = t.database.db;
  if (dialectOf(db) === 'sqlite') {
    await sql`CREATE TRIGGER refuse_deleted BEFORE UPDATE OF status ON push_message_users
      WHEN NEW.status = 3 BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`.execute(db);
    return;
  }
  await sql`CREATE FUNCTION refuse_deleted() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`.execute(db);
  await sql`CREATE TRIGGER refuse_deleted BEFORE UPDATE OF status ON push_message_users
    FOR EACH ROW WHEN (NEW.status = 3) EXECUTE FUNCTION refuse_deleted()`.execute(db);
}

async function allowDeletedPushUsers(t: TestApp): Promise<void> {
  const db = t.database.db;
  if (dialectOf(db) === 'sqlite') {
    await sql`DROP TRIGGER refuse_deleted`.execute(db);
    return;
  }
  await sql`DROP TRIGGER refuse_deleted ON push_message_users`.execute(db);
  await sql`DROP FUNCTION refuse_deleted()`.execute(db);
}

/** A device's live stream, read until an event matches. */
async function openStream(t: TestApp, deviceToken: string) {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/api/Device/Events`, {
    headers: { authorization: `Device ${deviceToken}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream');
  const decoder = new TextDecoder();
  const received: DeviceEvent[] = [];
  let buffer = '';
  return {
    async until(match: (event: DeviceEvent) => boolean, timeoutMs = 5_000): Promise<DeviceEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = received.findIndex(match);
        const found = received[index];
        if (found) {
          received.splice(0, index + 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no such event; had ${JSON.stringify(received)}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (data) received.push(DeviceEvent.parse(JSON.parse(data.slice(6))));
        }
      }
    },
    async close() {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}
