import { describe, expect, it } from 'vitest';
import {
  DevicePushList,
  Instruction,
  MAX_CODES_PER_WINDOW,
  PushMessageUserList,
  TokenAccepted,
} from '../../../shared/contract/index.ts';
import {
  approvedDevice,
  browserSubscription,
  countRows,
  createRealDeployment,
  decide,
  deviceCall,
  deviceStateOf,
  enrollDevice,
  PUSH_ORIGIN,
  type RecordingPushSender,
} from '../../test/device-helpers.ts';
import { errorPaths, expectProblem, parseBody, type TestApp, wrongToken } from '../../test/harness.ts';

const DANA = ['ACME\\dana', 'Dana keeps a long passphrase'] as const;
const EVE = ['ACME\\eve', 'Eve keeps a long passphrase too'] as const;

/** Dana and Eve are ordinary people of a deployment with demo mode off (createRealDeployment); Dana is signed in. */
async function realDeployment(): Promise<{ t: TestApp; sender: RecordingPushSender; admin: string; dana: string }> {
  const deployment = await createRealDeployment([DANA, EVE]);
  return { ...deployment, dana: await deployment.t.login(...DANA) };
}

/** A person's phone, enrolled signed in, approved by the admin and subscribed to Web Push: an Active device. */
const activePhone = (t: TestApp, admin: string, token: string) => approvedDevice(t, admin, { token });

/** The one code a phone's inbox shows, as the device app reads it. */
async function codeOnPhone(t: TestApp, deviceToken: string): Promise<string> {
  const inbox = parseBody(
    await deviceCall(t, deviceToken, { method: 'GET', url: '/api/Device/Pushes' }),
    DevicePushList,
  );
  expect(inbox).toHaveLength(1);
  return inbox[0]?.Token ?? '';
}

const createInstruction = (t: TestApp, token: string, payload: object, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/api/Instructions', token, payload, headers });

describe('instructions with demo mode off (POST/GET /Instructions, POST /Instructions/{id}/Token)', () => {
  it('runs the whole loop: enrol, approve, subscribe, instruction, push, inbox, #3, and the code is gone', async () => {
    const { t, sender, admin, dana } = await realDeployment();
    try {
      const enrolled = await enrollDevice(t, { token: dana });
      expect(await deviceStateOf(t, enrolled.DeviceToken)).toMatchObject({
        RequestStatus: 'Pending',
        PushMessageUserId: null,
        PushMessageUserStatus: null,
        UserName: DANA[0],
      });
      await decide(t, admin, enrolled);
      const state = await deviceStateOf(t, enrolled.DeviceToken);
      expect(state).toMatchObject({ RequestStatus: 'Authorized', PushMessageUserStatus: 1, PushEndpoint: null });
      const users = parseBody(
        await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: admin }),
        PushMessageUserList,
      );
      expect(users).toEqual([expect.objectContaining({ Id: state.PushMessageUserId, UserName: DANA[0], Status: 1 })]);

      const subscription = browserSubscription(`${PUSH_ORIGIN}/push/dana`);
      const subscribed = await deviceCall(t, enrolled.DeviceToken, {
        method: 'PUT',
        url: '/api/Device/PushSubscription',
        payload: subscription,
      });
      expect(subscribed.statusCode, subscribed.body).toBe(204);
      expect((await deviceStateOf(t, enrolled.DeviceToken)).PushEndpoint).toBe(subscription.endpoint);

      const created = await createInstruction(
        t,
        dana,
        { Name: 'Restart the print spooler on 40 devices' },
        { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/140.0' },
      );
      expect(created.statusCode, created.body).toBe(201);
      const instruction = parseBody(created, Instruction);
      expect(instruction).toEqual({
        Id: instruction.Id,
        Name: 'Restart the print spooler on 40 devices',
        Scheduled: false,
        State: 'AwaitingTwoFactor',
        TokenExpiresTimestampUtc: '2026-11-21 09:10:00.000',
        DevicesNotified: 1,
      });

      // Web Push: one target, the subscribed device, sent after the commit; what it says, not the code.
      await sender.settled();
      expect(sender.sent).toHaveLength(1);
      const [sent] = sender.sent;
      expect(sent?.committed).toBe(true);
      expect(sent?.targets).toEqual([
        {
          deviceId: expect.any(Number),
          subscription: {
            endpoint: subscription.endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
          },
        },
      ]);
      expect(sent?.message).toEqual({
        instructionId: instruction.Id,
        name: 'Restart the print spooler on 40 devices',
        scheduled: false,
        expires: new Date('2026-11-21T09:10:00.000Z'),
      });

      // The inbox holds the code, with where it was asked for: the phone reads it there.
      const inbox = parseBody(
        await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }),
        DevicePushList,
      );
      expect(inbox).toEqual([
        {
          InstructionId: instruction.Id,
          Purpose: 'Instruction',
          Name: 'Restart the print spooler on 40 devices',
          Scheduled: false,
          Token: expect.stringMatching(/^\d{6}$/),
          SentTimestampUtc: '2026-11-21 09:00:00.000',
          ExpiresTimestampUtc: '2026-11-21 09:10:00.000',
          ClientAddress: '127.0.0.1',
          UserAgent: 'Mozilla/5.0 (Windows NT 10.0) Firefox/140.0',
        },
      ]);

      const accepted = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication/Instruction/Token',
        token: dana,
        payload: { Id: instruction.Id, Token: inbox[0]?.Token },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(parseBody(accepted, TokenAccepted)).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });

      // Used: off the inbox, and outside demo mode not kept in plain text anywhere.
      expect(
        parseBody(
          await deviceCall(t, enrolled.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }),
          DevicePushList,
        ),
      ).toEqual([]);
      const plain = await t.database.db.selectFrom('pushes').select('token').where('token', 'is not', null).execute();
      expect(plain).toEqual([]);
      const got = parseBody(
        await t.call({ method: 'GET', url: `/api/Instructions/${instruction.Id}`, token: dana }),
        Instruction,
      );
      expect(got.State).toBe('Authenticated');
    } finally {
      await t.close();
    }
  });

  it('refuses an instruction when the caller has no Active device (409 no-active-device), storing and pushing nothing', async () => {
    const { t, sender, admin, dana } = await realDeployment();
    try {
      const refused = await createInstruction(t, dana, { Name: 'Patch Tuesday' });
      expect(expectProblem(refused, 409, 'no-active-device').detail).toMatch(
        /^Enrol a device at \/device, and have it approved/,
      );
      // A device still waiting for approval is no Active device either.
      await enrollDevice(t, { token: dana });
      expectProblem(await createInstruction(t, dana, { Name: 'Patch Tuesday' }), 409, 'no-active-device');
      // Neither is one the admin rejected.
      const other = await enrollDevice(t, { token: dana }, { DeviceType: 'Android' });
      await decide(t, admin, other, false);
      expectProblem(await createInstruction(t, dana, { Name: 'Patch Tuesday' }), 409, 'no-active-device');
      expect(await countRows(t, 'instructions')).toBe(0);
      expect(await countRows(t, 'pushes')).toBe(0);
      expect(await countRows(t, 'token_issues')).toBe(0);
      expect(sender.sent).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('sends the 6th code in 10 minutes nowhere: 429 with Retry-After, counting instructions and new tokens together', async () => {
    const { t, sender, admin, dana } = await realDeployment();
    try {
      await activePhone(t, admin, dana);
      const first = parseBody(await createInstruction(t, dana, { Name: 'One' }), Instruction);
      t.clock.advanceMinutes(2);
      for (let n = 2; n < MAX_CODES_PER_WINDOW; n++) {
        expect((await createInstruction(t, dana, { Name: `Number ${n}` })).statusCode).toBe(201);
      }
      // The fifth code is a new token for the first instruction: reissues count too.
      const reissued = await t.call({ method: 'POST', url: `/api/Instructions/${first.Id}/Token`, token: dana });
      expect(reissued.statusCode, reissued.body).toBe(200);
      await sender.settled();
      expect(sender.sent).toHaveLength(MAX_CODES_PER_WINDOW);
      const storedBefore = await countRows(t, 'instructions');

      const sixth = await createInstruction(t, dana, { Name: 'Six' });
      expectProblem(sixth, 429, 'too-many-requests');
      // The first code was 2 minutes before the others: it leaves the window in 8 minutes.
      expect(sixth.headers['retry-after']).toBe(String(8 * 60));
      const again = await t.call({ method: 'POST', url: `/api/Instructions/${first.Id}/Token`, token: dana });
      expectProblem(again, 429, 'too-many-requests');
      expect(await countRows(t, 'instructions')).toBe(storedBefore);
      expect(await countRows(t, 'token_issues')).toBe(MAX_CODES_PER_WINDOW);
      expect(sender.sent).toHaveLength(MAX_CODES_PER_WINDOW);

      // Another person has a budget of their own; and once the first code left the window, Dana may have one more.
      const eve = await t.login(...EVE);
      await activePhone(t, admin, eve);
      expect((await createInstruction(t, eve, { Name: 'Eve' })).statusCode).toBe(201);
      t.clock.advanceMinutes(8);
      expect((await createInstruction(t, dana, { Name: 'Later' })).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('lets only the creator read or reissue an instruction: 403 not-creator for another person, 404 when unknown', async () => {
    const { t, admin, dana } = await realDeployment();
    try {
      await activePhone(t, admin, dana);
      const instruction = parseBody(await createInstruction(t, dana, { Name: 'Mine', Scheduled: true }), Instruction);
      expect(instruction.Scheduled).toBe(true);
      const eve = await t.login(...EVE);
      const read = await t.call({ method: 'GET', url: `/api/Instructions/${instruction.Id}`, token: eve });
      expect(expectProblem(read, 403, 'not-creator').detail).not.toContain('dana');
      expectProblem(
        await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: eve }),
        403,
        'not-creator',
      );
      expectProblem(await t.call({ method: 'GET', url: '/api/Instructions/987654', token: dana }), 404, 'not-found');
      expectProblem(
        await t.call({ method: 'POST', url: '/api/Instructions/987654/Token', token: dana }),
        404,
        'not-found',
      );
      // Only the creator may submit its code (#4, as #2-#4 always did).
      const code = await t.database.db
        .selectFrom('pushes')
        .select('token')
        .where('instruction_id', '=', instruction.Id)
        .executeTakeFirstOrThrow();
      expectProblem(
        await t.call({
          method: 'POST',
          url: '/api/Consumer/Authentication/ScheduledInstruction/Token',
          token: eve,
          payload: { Id: instruction.Id, Token: code.token },
        }),
        403,
        'not-creator',
      );
      expectProblem(
        await t.call({ method: 'GET', url: `/api/Instructions/${instruction.Id}` }),
        401,
        'unauthenticated',
      );
    } finally {
      await t.close();
    }
  });

  it('reads the state now, and a reissued code replaces the one before', async () => {
    const { t, sender, admin, dana } = await realDeployment();
    try {
      const phone = await activePhone(t, admin, dana);
      const instruction = parseBody(await createInstruction(t, dana, { Name: 'Reboot' }), Instruction);
      const firstCode = await codeOnPhone(t, phone.DeviceToken);
      t.clock.advanceMinutes(11);
      const expired = parseBody(
        await t.call({ method: 'GET', url: `/api/Instructions/${instruction.Id}`, token: dana }),
        Instruction,
      );
      expect(expired).toMatchObject({ State: 'Expired', DevicesNotified: 1 });
      // Expired: gone from the inbox (and, outside demo mode, from the database at the next purge).
      expect(
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList),
      ).toEqual([]);

      const reissued = await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: dana });
      expect(reissued.statusCode, reissued.body).toBe(200);
      expect(parseBody(reissued, Instruction)).toMatchObject({
        State: 'AwaitingTwoFactor',
        TokenExpiresTimestampUtc: '2026-11-21 09:21:00.000',
        DevicesNotified: 1,
      });
      await sender.settled();
      expect(sender.sent).toHaveLength(2);
      const secondCode = await codeOnPhone(t, phone.DeviceToken);
      // The first code no longer works (unless both happen to be equal, one chance in a million).
      if (firstCode !== secondCode) {
        expectProblem(
          await t.call({
            method: 'POST',
            url: '/api/Consumer/Authentication/Instruction/Token',
            token: dana,
            payload: { Id: instruction.Id, Token: firstCode },
          }),
          422,
          'invalid-token',
        );
      }
      expect(await t.database.db.selectFrom('pushes').select('token').where('token', 'is not', null).execute()).toEqual(
        [{ token: secondCode }],
      );
    } finally {
      await t.close();
    }
  });

  it('validates the body: Name required, not blank, at most 256 characters, nothing hidden; Scheduled a boolean', async () => {
    const { t, admin, dana } = await realDeployment();
    try {
      await activePhone(t, admin, dana);
      for (const [payload, path] of [
        [{}, 'Name'],
        [{ Name: '   ' }, 'Name'],
        [{ Name: 'x'.repeat(257) }, 'Name'],
        [{ Name: 'Reboot\u202e' }, 'Name'],
        [{ Name: 'Reboot', Scheduled: 'yes' }, 'Scheduled'],
      ] as const) {
        expect(errorPaths(expectProblem(await createInstruction(t, dana, payload), 400, 'validation'))).toEqual([path]);
      }
      expect(await countRows(t, 'instructions')).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('keeps the wrong-token lock: a locked instruction shows no code, and a new token unlocks it', async () => {
    const { t, admin, dana } = await realDeployment();
    try {
      const phone = await activePhone(t, admin, dana);
      const instruction = parseBody(await createInstruction(t, dana, { Name: 'Lock me' }), Instruction);
      const code = await codeOnPhone(t, phone.DeviceToken);
      for (let attempt = 0; attempt < 5; attempt++) {
        await t.call({
          method: 'POST',
          url: '/api/Consumer/Authentication/Instruction/Token',
          token: dana,
          payload: { Id: instruction.Id, Token: wrongToken(code) },
        });
      }
      expect(
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList),
      ).toEqual([]);
      const reissued = await t.call({ method: 'POST', url: `/api/Instructions/${instruction.Id}/Token`, token: dana });
      expect(reissued.statusCode).toBe(200);
      expect(
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList),
      ).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('Web Push stays off without a subject outside demo mode', () => {
  it('sends nothing by Web Push, and the inbox still delivers', async () => {
    const { t, sender, admin } = await createRealDeployment([DANA], { vapidSubject: null });
    try {
      const dana = await t.login(...DANA);
      const phone = await activePhone(t, admin, dana);
      const key = await t.call({ method: 'GET', url: '/api/Device/PushKey', token: dana });
      expect(key.json()).toEqual({
        PublicKey: expect.any(String),
        WebPushEnabled: false,
        Reason: expect.stringContaining('VAPID_SUBJECT'),
      });
      expect((await createInstruction(t, dana, { Name: 'Quiet' })).statusCode).toBe(201);
      expect(sender.sent).toEqual([]);
      expect(
        parseBody(await deviceCall(t, phone.DeviceToken, { method: 'GET', url: '/api/Device/Pushes' }), DevicePushList),
      ).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
