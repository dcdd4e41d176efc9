import { beforeEach, describe, expect, it } from 'vitest';
import {
  Account,
  AccountHistoryList,
  AuthorizationRequestList,
  DevicePushList,
  EnrollmentLink,
  HistoryList,
  Instruction,
  PushKey,
  PushMessageUserList,
  ReportedCodeList,
} from '../../../shared/contract/index.ts';
import { removePushSubscription } from '../../domain/delivery/token-delivery.ts';
import {
  browserSubscription,
  countRows,
  decide,
  deviceCall,
  deviceStateOf,
  enrollDevice,
  PHONE,
  setPushUserStatus,
} from '../../test/device-helpers.ts';
import {
  createTestApp,
  ADMIN as DEMO_ADMIN,
  errorPaths,
  expectProblem,
  OPERATOR,
  parseBody,
  pushedToken,
  useTestApp,
} from '../../test/harness.ts';

const ADMIN = ['ACME\\admin', 'Quiet lantern harbour 42'] as const;
const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;
const PUSH_ORIGIN = 'http://127.0.0.1:9';
/** Stands in for DNS: the browsers' push services at public addresses, and one "compromised" name at a private one. */
const HOSTS: Record<string, string[]> = {
  'fcm.googleapis.com': ['142.250.74.74', '2a00:1450:4001:82a::200a'],
  'web.push.apple.com': ['17.188.166.26'],
  'eu.notify.windows.com': ['10.20.30.40'],
  'updates.push.services.mozilla.com': ['::ffff:169.254.169.254'],
};

describe('the device API with demo mode off', () => {
  const { t } = useTestApp({
    config: { demo: false, adminUserName: ADMIN[0], adminPassword: ADMIN[1], pushAllowOrigins: [PUSH_ORIGIN] },
    options: {
      hostLookup: async (host) => {
        const addresses = HOSTS[host];
        if (!addresses) throw new Error(`ENOTFOUND ${host}`);
        return addresses;
      },
    },
  });
  let admin: string;
  let dana: string;
  let danaId: number;
  beforeEach(async () => {
    admin = await t.login(...ADMIN);
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: DANA[0], Password: DANA[1], Email: 'dana.okafor@acme.example' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const account = parseBody(created, Account);
    expect(account.Email).toBe('dana.okafor@acme.example');
    danaId = account.Id;
    dana = await t.login(...DANA);
  });

  const queue = async () =>
    parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests', token: admin }),
      AuthorizationRequestList,
    );
  const enrolWith = (payload: object, headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: '/api/Device/Enrollments', payload, headers });
  const newLink = async () => {
    const response = await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks', token: dana });
    expect(response.statusCode, response.body).toBe(201);
    return parseBody(response, EnrollmentLink);
  };

  describe('enrolment', () => {
    it('signed in: a Pending request in the queue under the account name and email, and a device credential', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      expect(enrolled.DeviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await queue()).toEqual([
        expect.objectContaining({
          Id: enrolled.AuthorizationRequestId,
          RequestGuid: enrolled.RequestGuid,
          UserName: DANA[0],
          UserEmail: 'dana.okafor@acme.example',
          DeviceType: 'iOS',
          Manufacturer: 'Apple',
          Model: 'iPhone 16',
          OsVersion: '18.4',
          Status: 'Pending',
        }),
      ]);
      const history = parseBody(
        await t.call({
          method: 'GET',
          url: `/api/Consumer/History?entity=AuthorizationRequest&id=${enrolled.AuthorizationRequestId}`,
          token: admin,
        }),
        HistoryList,
      );
      expect(history).toEqual([expect.objectContaining({ Action: 'Created', To: 'Pending', ChangedBy: DANA[0] })]);
      // Only the credential's hash is stored.
      const stored = await t.database.db.selectFrom('devices').select('credential_hash').execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.credential_hash).not.toContain(enrolled.DeviceToken);
      expect(stored[0]?.credential_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('takes the platform header and Basic credentials as sign-ins; an account without email gives an empty UserEmail', async () => {
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${danaId}/Email`,
        token: admin,
        payload: { Email: null },
      });
      const viaHeader = await enrolWith(PHONE, { 'x-tachyon-authenticate': dana });
      expect(viaHeader.statusCode, viaHeader.body).toBe(201);
      const basic = Buffer.from(`${DANA[0]}:${DANA[1]}`).toString('base64');
      const viaBasic = await enrolWith({ DeviceType: 'Android' }, { authorization: `Basic ${basic}` });
      expect(viaBasic.statusCode, viaBasic.body).toBe(201);
      const requests = await queue();
      expect(
        requests.map((request) => [request.UserName, request.UserEmail, request.DeviceType, request.Model]),
      ).toEqual([
        [DANA[0], '', 'iOS', 'iPhone 16'],
        [DANA[0], '', 'Android', ''],
      ]);
    });

    it('with a link: no password on the phone; the code works once, for 10 minutes, and made-up ones never', async () => {
      const link = await newLink();
      expect(link.Url).toBe(`${t.config.publicUrl}/device#enrol=${link.Code}`);
      expect(link.Url).not.toContain('?');
      expect(link.ExpiresTimestampUtc).toBe('2026-11-21 09:10:00.000');
      const enrolled = await enrollDevice(t, { code: link.Code });
      expect(await deviceStateOf(t, enrolled.DeviceToken)).toMatchObject({
        UserName: DANA[0],
        RequestStatus: 'Pending',
      });

      const reused = await enrolWith({ ...PHONE, EnrollmentCode: link.Code });
      expect(expectProblem(reused, 401, 'enrollment-code-invalid').detail).toContain('already used, has expired');
      const late = await newLink();
      t.clock.advanceMinutes(10);
      expectProblem(await enrolWith({ ...PHONE, EnrollmentCode: late.Code }), 401, 'enrollment-code-invalid');
      expectProblem(await enrolWith({ ...PHONE, EnrollmentCode: 'q'.repeat(43) }), 401, 'enrollment-code-invalid');
      expectProblem(await enrolWith({ ...PHONE, EnrollmentCode: '' }), 401, 'enrollment-code-invalid');
      expect(await countRows(t, 'devices')).toBe(1);
      expect(await queue()).toHaveLength(1);
      // The codes themselves are not stored, only their hashes.
      const codes = await t.database.db.selectFrom('enrollment_codes').select('code_hash').execute();
      expect(codes.map((code) => code.code_hash)).not.toContain(link.Code);
    });

    it('refuses a link made by a person since disabled', async () => {
      const link = await newLink();
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${danaId}/Enabled`,
        token: admin,
        payload: { Enabled: false },
      });
      expectProblem(await enrolWith({ ...PHONE, EnrollmentCode: link.Code }), 401, 'enrollment-code-invalid');
      expect(await countRows(t, 'devices')).toBe(0);
    });

    it('needs a sign-in or a code: 401 without either, and for a session that ended', async () => {
      expectProblem(await enrolWith(PHONE), 401, 'unauthenticated');
      expectProblem(await enrolWith(PHONE, { authorization: 'Bearer not-a-session' }), 401, 'unauthenticated');
      expectProblem(await t.call({ method: 'POST', url: '/api/Device/EnrollmentLinks' }), 401, 'unauthenticated');
      expect(await countRows(t, 'devices')).toBe(0);
      expect(await countRows(t, 'authorization_requests')).toBe(0);
    });

    it('validates the device fields as the queue shows them: DeviceType required, limits, nothing hidden', async () => {
      const cases: Array<[object, string[]]> = [
        [{}, ['DeviceType']],
        [{ DeviceType: '' }, ['DeviceType']],
        [{ DeviceType: '   ' }, ['DeviceType']],
        [{ DeviceType: 'x'.repeat(65) }, ['DeviceType']],
        [{ DeviceType: 'iOS', Manufacturer: 'x'.repeat(129) }, ['Manufacturer']],
        [{ DeviceType: 'iOS', Model: 'x'.repeat(129) }, ['Model']],
        [{ DeviceType: 'iOS', OsVersion: 'x'.repeat(65) }, ['OsVersion']],
        [{ DeviceType: 'i\u200bOS' }, ['DeviceType']],
        [{ DeviceType: 'iOS', Model: 'iPhone\u202e61' }, ['Model']],
        [{ DeviceType: 'iOS', Manufacturer: 'Apple\u0007' }, ['Manufacturer']],
        [{ DeviceType: 'iOS', OsVersion: '18\n4' }, ['OsVersion']],
        [{ DeviceType: 42 }, ['DeviceType']],
        [{ DeviceType: 'iOS', EnrollmentCode: 'x'.repeat(129) }, ['EnrollmentCode']],
      ];
      for (const [payload, paths] of cases) {
        const response = await t.call({ method: 'POST', url: '/api/Device/Enrollments', token: dana, payload });
        expect(errorPaths(expectProblem(response, 400, 'validation')), JSON.stringify(payload)).toEqual(paths);
      }
      // The longest allowed, and empty optional fields (a browser that cannot tell), are fine.
      const longest = await t.call({
        method: 'POST',
        url: '/api/Device/Enrollments',
        token: dana,
        payload: { DeviceType: 'x'.repeat(64), Manufacturer: '', Model: 'm'.repeat(128), OsVersion: 'o'.repeat(64) },
      });
      expect(longest.statusCode, longest.body).toBe(201);
      expect(await countRows(t, 'devices')).toBe(1);
    });

    it('allows one person 10 enrolments an hour, however they enrol', async () => {
      for (let n = 0; n < 10; n++) await enrollDevice(t, { token: dana }, { DeviceType: `Type ${n}` });
      const link = await newLink();
      const refused = await enrolWith({ ...PHONE, EnrollmentCode: link.Code });
      expectProblem(refused, 429, 'too-many-requests');
      expect(refused.headers['retry-after']).toBe('3600');
      expect(await countRows(t, 'devices')).toBe(10);
      t.clock.advanceMinutes(61);
      await enrollDevice(t, { token: await t.login(...DANA) });
    });
  });

  describe('the device credential', () => {
    it('refuses a missing, made-up or session credential on device endpoints (401)', async () => {
      const missing = await t.call({ method: 'GET', url: '/api/Device' });
      expectProblem(missing, 401, 'unauthenticated');
      expect(missing.headers['www-authenticate']).toBe('Device realm="tachyon"');
      const madeUp = await deviceCall(t, 'x'.repeat(43), { method: 'GET', url: '/api/Device' });
      expectProblem(madeUp, 401, 'unauthenticated');
      expect(madeUp.headers['www-authenticate']).toContain('error="invalid_token"');
      // A person's session is not a device.
      expectProblem(await t.call({ method: 'GET', url: '/api/Device/Pushes', token: dana }), 401, 'unauthenticated');
    });

    it('shows the request decided and the push user status as they change, Disabled included', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      await decide(t, admin, enrolled);
      const state = await deviceStateOf(t, enrolled.DeviceToken);
      expect(state).toEqual({
        AuthorizationRequestId: enrolled.AuthorizationRequestId,
        RequestStatus: 'Authorized',
        Comment: null,
        PushMessageUserId: expect.any(Number),
        PushMessageUserStatus: 1,
        UserName: DANA[0],
        DeviceType: 'iOS',
        PushEndpoint: null,
      });
      await setPushUserStatus(t, admin, state.PushMessageUserId, 2);
      // A Disabled device still signs in, so it can say it is Disabled; it gets no codes.
      expect((await deviceStateOf(t, enrolled.DeviceToken)).PushMessageUserStatus).toBe(2);
      expectProblem(
        await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name: 'x' } }),
        409,
        'no-active-device',
      );
    });

    it('shows a rejection with its comment', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/AuthorizeDevice',
        token: admin,
        payload: {
          RequestId: enrolled.AuthorizationRequestId,
          RequestGuid: enrolled.RequestGuid,
          Authorized: false,
          Comment: 'Personal phones are not allowed',
        },
      });
      expect(await deviceStateOf(t, enrolled.DeviceToken)).toMatchObject({
        RequestStatus: 'Rejected',
        Comment: 'Personal phones are not allowed',
        PushMessageUserId: null,
        PushMessageUserStatus: null,
      });
    });

    it('ends when the push user is Deleted (#10), and stays ended when the device type registers again', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      await decide(t, admin, enrolled);
      const { PushMessageUserId } = await deviceStateOf(t, enrolled.DeviceToken);
      await setPushUserStatus(t, admin, PushMessageUserId, 3);
      expectProblem(
        await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device' }),
        401,
        'device-ended',
      );
      // A new phone of the same type gets a push user of its own; the old credential stays ended.
      const again = await enrollDevice(t, { token: dana });
      await decide(t, admin, again);
      expect((await deviceStateOf(t, again.DeviceToken)).PushMessageUserId).not.toBe(PushMessageUserId);
      expectProblem(
        await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device' }),
        401,
        'device-ended',
      );
    });

    it('ends when its person is disabled, for good', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      const setEnabled = (Enabled: boolean) =>
        t.call({ method: 'PUT', url: `/api/Admin/Accounts/${danaId}/Enabled`, token: admin, payload: { Enabled } });
      await setEnabled(false);
      const ended = await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' });
      expectProblem(ended, 401, 'device-ended');
      await setEnabled(true);
      expectProblem(
        await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device' }),
        401,
        'device-ended',
      );
    });
  });

  describe('DELETE /Device', () => {
    it("makes an authorized device's push user Deleted, recorded in its history, and ends the credential", async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      await decide(t, admin, enrolled);
      const { PushMessageUserId } = await deviceStateOf(t, enrolled.DeviceToken);
      const removed = await deviceCall(t, enrolled.DeviceToken, { method: 'DELETE', url: '/api/Device' });
      expect(removed.statusCode, removed.body).toBe(204);
      const users = parseBody(
        await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: admin }),
        PushMessageUserList,
      );
      expect(users.find((user) => user.Id === PushMessageUserId)?.Status).toBe(3);
      const history = parseBody(
        await t.call({
          method: 'GET',
          url: `/api/Consumer/History?entity=PushMessageUser&id=${PushMessageUserId}`,
          token: admin,
        }),
        HistoryList,
      );
      expect(history.at(-1)).toMatchObject({
        Action: 'StatusChanged',
        From: 'Active',
        To: 'Deleted',
        ChangedBy: DANA[0],
      });
      expectProblem(
        await deviceCall(t, enrolled.DeviceToken, { method: 'DELETE', url: '/api/Device' }),
        401,
        'device-ended',
      );
    });

    it('withdraws a request still waiting, so the queue stops asking about a device that is gone', async () => {
      const enrolled = await enrollDevice(t, { token: dana });
      const removed = await deviceCall(t, enrolled.DeviceToken, { method: 'DELETE', url: '/api/Device' });
      expect(removed.statusCode).toBe(204);
      expect(await queue()).toEqual([]);
      const all = parseBody(
        await t.call({
          method: 'GET',
          url: '/api/Consumer/Authentication/AuthorizationRequests?getall=true',
          token: admin,
        }),
        AuthorizationRequestList,
      );
      expect(all).toEqual([
        expect.objectContaining({
          Status: 'Rejected',
          DecidedBy: DANA[0],
          Comment: expect.stringMatching(/^Withdrawn/),
        }),
      ]);
      expect(await countRows(t, 'push_message_users')).toBe(0);
    });
  });

  describe('push subscription', () => {
    const put = (deviceToken: string, payload: unknown) =>
      deviceCall(t, deviceToken, { method: 'PUT', url: '/api/Device/PushSubscription', payload: payload as object });

    it('stores a subscription to a browser push service or a listed origin, and forgets it on DELETE', async () => {
      const { DeviceToken } = await enrollDevice(t, { token: dana });
      for (const endpoint of [
        'https://fcm.googleapis.com/fcm/send/dGhpcyBpcyBh',
        'https://web.push.apple.com/QGuQyavXutnMH',
        'https://fcm.googleapis.com:443/fcm/send/explicit-port',
        `${PUSH_ORIGIN}/push/1`,
      ]) {
        const stored = await put(DeviceToken, browserSubscription(endpoint));
        expect(stored.statusCode, `${endpoint}: ${stored.body}`).toBe(204);
      }
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBe(`${PUSH_ORIGIN}/push/1`);
      const cleared = await deviceCall(t, DeviceToken, { method: 'DELETE', url: '/api/Device/PushSubscription' });
      expect(cleared.statusCode).toBe(204);
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBeNull();
    });

    it('refuses malformed keys and endpoints (400 validation), storing nothing', async () => {
      const { DeviceToken } = await enrollDevice(t, { token: dana });
      // Standard base64 differs from base64url only where it has `+` or `/`: a key without either would pass.
      let good = browserSubscription('https://fcm.googleapis.com/fcm/send/abc');
      while (!/[+/]/.test(Buffer.from(good.keys.p256dh, 'base64url').toString('base64'))) {
        good = browserSubscription('https://fcm.googleapis.com/fcm/send/abc');
      }
      const key = Buffer.from(good.keys.p256dh, 'base64url');
      const cases: Array<[unknown, string[]]> = [
        [{ ...good, keys: { ...good.keys, p256dh: key.subarray(0, 64).toString('base64url') } }, ['keys.p256dh']],
        [
          { ...good, keys: { ...good.keys, p256dh: Buffer.from([5, ...key.subarray(1)]).toString('base64url') } },
          ['keys.p256dh'],
        ],
        [{ ...good, keys: { ...good.keys, p256dh: key.toString('base64') } }, ['keys.p256dh']],
        [{ ...good, keys: { ...good.keys, auth: Buffer.alloc(15, 1).toString('base64url') } }, ['keys.auth']],
        [{ ...good, keys: { p256dh: good.keys.p256dh } }, ['keys.auth']],
        [{ ...good, keys: undefined }, ['keys']],
        [{ ...good, endpoint: 'not a url' }, ['endpoint']],
        [{ ...good, endpoint: 'ftp://fcm.googleapis.com/x' }, ['endpoint']],
        [{ ...good, endpoint: `https://fcm.googleapis.com/${'a'.repeat(2048)}` }, ['endpoint']],
      ];
      for (const [payload, paths] of cases) {
        expect(errorPaths(expectProblem(await put(DeviceToken, payload), 400, 'validation'))).toEqual(paths);
      }
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBeNull();
    });

    it('refuses endpoints outside the policy with a 400 that says why, storing nothing', async () => {
      const { DeviceToken } = await enrollDevice(t, { token: dana });
      const cases: Array<[string, RegExp]> = [
        ['https://push.attacker.example/x', /not a push service this service sends to/],
        ['https://169.254.169.254/latest/meta-data', /not a push service/],
        ['http://fcm.googleapis.com/fcm/send/x', /must use https/],
        ['https://fcm.googleapis.com:8443/fcm/send/x', /port 443/],
        ['https://user:pw@fcm.googleapis.com/fcm/send/x', /user name or password/],
        // A browser push service's name that resolves into a private network, or to the metadata address.
        ['https://eu.notify.windows.com/w/?token=x', /resolves to 10\.20\.30\.40, a private address/],
        ['https://updates.push.services.mozilla.com/wpush/v2/x', /linkLocal address/],
        ['https://nowhere.push.apple.com/x', /does not resolve/],
        // Loopback is for origins an operator listed, not for anything on loopback.
        ['http://127.0.0.1:10/push', /not a push service/],
      ];
      for (const [endpoint, why] of cases) {
        const refused = expectProblem(
          await put(DeviceToken, browserSubscription(endpoint)),
          400,
          'push-endpoint-refused',
        );
        expect(refused.detail, endpoint).toMatch(why);
        expect(refused.errors).toEqual([{ path: 'endpoint', message: refused.detail }]);
      }
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBeNull();
    });

    it('is cleared after a push service said gone only if the device still has that endpoint', async () => {
      const { DeviceToken } = await enrollDevice(t, { token: dana });
      await put(DeviceToken, browserSubscription(`${PUSH_ORIGIN}/push/new`));
      const [device] = await t.database.db.selectFrom('devices').select('id').execute();
      await removePushSubscription(t.database.db, device?.id ?? 0, `${PUSH_ORIGIN}/push/old`);
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBe(`${PUSH_ORIGIN}/push/new`);
      await removePushSubscription(t.database.db, device?.id ?? 0, `${PUSH_ORIGIN}/push/new`);
      expect((await deviceStateOf(t, DeviceToken)).PushEndpoint).toBeNull();
    });
  });

  it('GET /Device/PushKey: the VAPID public key, to a person or a device, never to anyone', async () => {
    const { DeviceToken } = await enrollDevice(t, { token: dana });
    const asPerson = parseBody(await t.call({ method: 'GET', url: '/api/Device/PushKey', token: dana }), PushKey);
    const asDevice = parseBody(
      await deviceCall(t, DeviceToken, { method: 'GET', url: '/api/Device/PushKey' }),
      PushKey,
    );
    expect(asDevice).toEqual(asPerson);
    const key = Buffer.from(asPerson.PublicKey, 'base64url');
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
    // No VAPID_SUBJECT with demo mode off: Web Push is off, and the device app is told why.
    expect(asPerson.WebPushEnabled).toBe(false);
    expect(asPerson.Reason).toMatch(/VAPID_SUBJECT/);
    expectProblem(await t.call({ method: 'GET', url: '/api/Device/PushKey' }), 401, 'unauthenticated');
  });

  describe('"This wasn\'t me"', () => {
    it('stops the code, ends every session of the person, and shows the report to account admins', async () => {
      const phone = await enrollDevice(t, { token: dana });
      await decide(t, admin, phone);
      const created = await t.call({
        method: 'POST',
        url: '/api/Instructions',
        token: dana,
        payload: { Name: 'Wipe the finance laptops' },
        headers: { 'user-agent': 'curl/8.5.0', 'x-forwarded-for': '203.0.113.9' },
      });
      const instruction = parseBody(created, Instruction);
      const [push] = parseBody(
        await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }),
        DevicePushList,
      );
      const otherSession = await t.login(...DANA);

      t.clock.advanceMinutes(1);
      const report = await deviceCall(t, phone.DeviceToken, {
        method: 'POST',
        url: `/api/Device/Pushes/${instruction.Id}/Report`,
      });
      expect(report.statusCode, report.body).toBe(204);

      // Every session of the person ended: whoever asked for the code knows the password.
      for (const token of [dana, otherSession]) {
        expectProblem(
          await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token }),
          401,
          'unauthenticated',
        );
      }
      const fresh = await t.login(...DANA);
      expectProblem(
        await t.call({
          method: 'POST',
          url: '/api/Consumer/Authentication/Instruction/Token',
          token: fresh,
          payload: { Id: instruction.Id, Token: push?.Token },
        }),
        422,
        'token-expired',
      );
      expectProblem(
        await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: fresh }),
        409,
        'instruction-reported',
      );
      expect(
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList),
      ).toEqual([]);
      expect(await t.database.db.selectFrom('pushes').select('token').where('token', 'is not', null).execute()).toEqual(
        [],
      );

      const history = parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Accounts/${danaId}/History`, token: admin }),
        AccountHistoryList,
      );
      expect(history.find((entry) => entry.Action === 'CodeReported')).toMatchObject({
        AccountId: danaId,
        UserName: DANA[0],
        ClientAddress: '127.0.0.1',
        ChangedBy: DANA[0],
        Detail: expect.stringContaining('Wipe the finance laptops'),
      });
      const reported = parseBody(
        await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: admin }),
        ReportedCodeList,
      );
      expect(reported).toEqual([
        {
          Id: expect.any(Number),
          AccountId: danaId,
          UserName: DANA[0],
          InstructionId: instruction.Id,
          InstructionName: 'Wipe the finance laptops',
          Scheduled: false,
          RequestedTimestampUtc: '2026-11-21 09:00:00.000',
          ClientAddress: '127.0.0.1',
          UserAgent: 'curl/8.5.0',
          ReportedTimestampUtc: '2026-11-21 09:01:00.000',
          HandledBy: null,
          HandledTimestampUtc: null,
        },
      ]);
      // Reporting again changes nothing more; people without Accounts Read never see the list.
      expect(
        (await deviceCall(t, phone.DeviceToken, { method: 'POST', url: `/api/Device/Pushes/${instruction.Id}/Report` }))
          .statusCode,
      ).toBe(204);
      expect(
        parseBody(
          await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: admin }),
          ReportedCodeList,
        ),
      ).toHaveLength(1);
      expectProblem(
        await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: fresh }),
        403,
        'forbidden',
      );
    });

    it('ends every other code still waiting for the person too: whoever asked for one may have asked for all', async () => {
      const phone = await enrollDevice(t, { token: dana });
      await decide(t, admin, phone);
      const instruct = async (Name: string) =>
        parseBody(
          await t.call({ method: 'POST', url: '/api/Instructions', token: dana, payload: { Name } }),
          Instruction,
        );
      const used = await instruct('Already run');
      const pushesNow = async () =>
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList);
      const usedCode = (await pushesNow()).find((push) => push.InstructionId === used.Id)?.Token;
      const submit = (token: string, Id: number, Token: string | undefined) =>
        t.call({
          method: 'POST',
          url: '/api/Consumer/Authentication/Instruction/Token',
          token,
          payload: { Id, Token },
        });
      expect((await submit(dana, used.Id, usedCode)).statusCode).toBe(200);
      const other = await instruct('Restart the print server');
      const reported = await instruct('Wipe the finance laptops');
      const otherCode = (await pushesNow()).find((push) => push.InstructionId === other.Id)?.Token;
      expect((await pushesNow()).map((push) => push.InstructionId)).toEqual([reported.Id, other.Id]);
      // Someone else's code is theirs: it keeps working.
      await t.addPrincipal('ACME\\eve', 'Eve keeps a long passphrase', []);
      const eve = await t.login('ACME\\eve', 'Eve keeps a long passphrase');
      const evesPhone = await enrollDevice(t, { token: eve });
      await decide(t, admin, evesPhone);
      const evesInstruction = parseBody(
        await t.call({ method: 'POST', url: '/api/Instructions', token: eve, payload: { Name: 'Eve’s own' } }),
        Instruction,
      );

      t.clock.advanceMinutes(1);
      const report = await deviceCall(t, phone.DeviceToken, {
        method: 'POST',
        url: `/api/Device/Pushes/${reported.Id}/Report`,
      });
      expect(report.statusCode, report.body).toBe(204);

      // The phone lists no code of the person any more, and the other code is refused as ended.
      expect(await pushesNow()).toEqual([]);
      const fresh = await t.login(...DANA);
      expectProblem(await submit(fresh, other.Id, otherCode), 422, 'token-expired');
      const state = async (id: number, token: string) =>
        parseBody(await t.call({ method: 'GET', url: `/api/Instructions/${id}`, token }), Instruction).State;
      expect(await state(other.Id, fresh)).toBe('Expired');
      // What already ran stays run; only the reported code is a report; the person may ask the other one again.
      expect(await state(used.Id, fresh)).toBe('Authenticated');
      expect(
        parseBody(
          await t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token: admin }),
          ReportedCodeList,
        ).map((entry) => entry.InstructionId),
      ).toEqual([reported.Id]);
      expect(
        (await t.call({ method: 'POST', url: `/api/Instructions/${other.Id}/Token`, token: fresh })).statusCode,
      ).toBe(200);
      expect(await state(evesInstruction.Id, eve)).toBe('AwaitingTwoFactor');
      const history = parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Accounts/${danaId}/History`, token: admin }),
        AccountHistoryList,
      );
      expect(history.find((entry) => entry.Action === 'CodeReported')?.Detail).toMatch(/1 other waiting code ended/);
    });

    it('answers 404 for an instruction whose code never reached this device', async () => {
      const phone = await enrollDevice(t, { token: dana });
      await decide(t, admin, phone);
      expectProblem(
        await deviceCall(t, phone.DeviceToken, { method: 'POST', url: '/api/Device/Pushes/4242/Report' }),
        404,
        'not-found',
      );
      expect(await countRows(t, 'account_history')).toBeGreaterThan(0);
      const history = parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Accounts/${danaId}/History`, token: admin }),
        AccountHistoryList,
      );
      expect(history.filter((entry) => entry.Action === 'CodeReported')).toEqual([]);
    });
  });

  it('PUT /Admin/Accounts/{id}/Email: sets, validates and removes an address, recorded in the account history', async () => {
    const set = (Email: unknown) =>
      t.call({ method: 'PUT', url: `/api/Admin/Accounts/${danaId}/Email`, token: admin, payload: { Email } });
    const changed = await set('dana@acme.example');
    expect(parseBody(changed, Account).Email).toBe('dana@acme.example');
    expect(errorPaths(expectProblem(await set('not an address'), 400, 'validation'))).toEqual(['Email']);
    expect(errorPaths(expectProblem(await set(`${'a'.repeat(250)}@acme.example`), 400, 'validation'))).toEqual([
      'Email',
    ]);
    expect(parseBody(await set(null), Account).Email).toBeNull();
    const history = parseBody(
      await t.call({ method: 'GET', url: `/api/Admin/Accounts/${danaId}/History`, token: admin }),
      AccountHistoryList,
    );
    expect(history.filter((entry) => entry.Action === 'EmailChanged').map((entry) => entry.Detail)).toEqual([
      'removed',
      'dana@acme.example',
    ]);
    expectProblem(
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${danaId}/Email`,
        token: dana,
        payload: { Email: null },
      }),
      403,
      'forbidden',
    );
  });
});

describe('the device API in demo mode: the demo actors reach enrolled devices through the same path', () => {
  it('delivers a demo instruction to an enrolled device of DEMO\\operator, beside the demo push user', async () => {
    const t = await createTestApp();
    try {
      const operator = await t.login(...OPERATOR);
      const admin = await t.login(...DEMO_ADMIN);
      const phone = await enrollDevice(t, { token: operator }, { DeviceType: 'Pixel' });
      await decide(t, admin, phone);
      const created = await t.call({ method: 'POST', url: '/api/Demo/Instructions', token: operator, payload: {} });
      expect(created.statusCode, created.body).toBe(201);
      const instruction = created.json<{ Id: number; DeliveredTo: number }>();
      expect(instruction.DeliveredTo).toBe(2);
      const [push] = parseBody(
        await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }),
        DevicePushList,
      );
      expect(push).toMatchObject({ InstructionId: instruction.Id, Name: 'Demo instruction' });
      expect(push?.Token).toBe(await pushedToken(t, operator, instruction.Id));
      // Demo mode signs Web Push with its own subject, never a localhost one.
      expect(parseBody(await t.call({ method: 'GET', url: '/api/Device/PushKey', token: operator }), PushKey)).toEqual({
        PublicKey: expect.any(String),
        WebPushEnabled: false,
        Reason: expect.stringMatching(/no push sender/),
      });
    } finally {
      await t.close();
    }
  });
});
