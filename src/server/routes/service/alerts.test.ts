import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AlertDeliveryList,
  AlertDestinationList,
  AlertDestinationWithSecret,
  AlertEventKind,
  Instruction,
} from '../../../shared/contract/index.ts';
import { decide, deviceCall, enrollDevice } from '../../test/device-helpers.ts';
import {
  ADMIN,
  AUDITOR,
  createTestApp,
  errorPaths,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  secondProcess,
  type TestApp,
} from '../../test/harness.ts';
import { testDatabaseServer } from '../../test/test-database.ts';
import { type ReceivedWebhook, WebhookReceiver } from '../../test/webhook-receiver.ts';

/** A destination that hears of everything: every kind the contract names. */
const ALL_EVENTS: AlertEventKind[] = [...AlertEventKind.options];

describe('alert destinations and their rules', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.status = 200;
    receiver.secret = null;
    t = await createTestApp({ alertWebhookAllowOrigins: [receiver.origin], publicUrl: 'https://tachyon.acme.example' });
    admin = await t.login(...ADMIN);
  });
  afterEach(() => t.close());

  const addWebhook = async (events: AlertEventKind[] = ALL_EVENTS, path = '/hook') => {
    const response = await t.call({
      method: 'POST',
      url: '/api/Admin/Alerts/Destinations',
      token: admin,
      payload: { Name: 'SIEM', Channel: 'Webhook', Target: `${receiver.origin}${path}`, Events: events },
    });
    expect(response.statusCode, response.body).toBe(201);
    const made = parseBody(response, AlertDestinationWithSecret);
    receiver.secret = made.Secret;
    return made;
  };
  const bodyOf = (hook: ReceivedWebhook) =>
    JSON.parse(hook.body) as { type: string; data: { kind: string; summary: string; url: string } };

  it('adds a webhook destination, answers its whsec_ secret once, and lists it without the secret or the path', async () => {
    const made = await addWebhook(['PermissionsChanged'], '/hook/secret-path?token=abc');
    expect(made.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.Target).toBe(`${receiver.origin}/…`);
    const list = parseBody(
      await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations', token: admin }),
      AlertDestinationList,
    );
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    expect(JSON.stringify(list)).not.toContain('secret-path');
    // Rotating answers a new secret, once.
    const rotated = parseBody(
      await t.call({ method: 'POST', url: `/api/Admin/Alerts/Destinations/${made.Id}/Secret`, token: admin }),
      AlertDestinationWithSecret,
    );
    expect(rotated.Secret).toMatch(/^whsec_/);
    expect(rotated.Secret).not.toBe(made.Secret);
    // Renamed and given other events; then removed.
    const changed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Alerts/Destinations/${made.Id}`,
      token: admin,
      payload: { Name: 'SIEM (prod)', Events: ['LockedOut', 'LockedOut', 'CodeReported'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ Name: 'SIEM (prod)', Events: ['LockedOut', 'CodeReported'] });
    const removed = await t.call({ method: 'DELETE', url: `/api/Admin/Alerts/Destinations/${made.Id}`, token: admin });
    expect(removed.statusCode).toBe(204);
    expect((await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations', token: admin })).json()).toEqual([]);
  });

  it('sends a signed webhook for a permission change, verified by hand, with a link to the account', async () => {
    const made = await addWebhook(['PermissionsChanged']);
    const accounts = await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin });
    const operator = (accounts.json() as Array<{ Id: number; UserName: string }>).find(
      (account) => account.UserName === OPERATOR[0],
    );
    const changed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read'], Accounts: [] } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [hook] = await receiver.waitFor(1);
    expect(hook?.signatureValid).toBe(true);
    expect(hook?.headers['webhook-id']).toMatch(/^msg_/);
    const body = bodyOf(hook as ReceivedWebhook);
    expect(body.type).toBe('security.permissions-changed');
    expect(body.data.summary).toBe(`${ADMIN[0]} changed the permissions of ${OPERATOR[0]}`);
    expect(body.data.url).toBe(`https://tachyon.acme.example/accounts?account=${operator?.Id}`);
    // The log shows it delivered, with the same message id.
    const logOf = async () =>
      parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Alerts/Destinations/${made.Id}/Deliveries`, token: admin }),
        AlertDeliveryList,
      );
    await expect
      .poll(async () => (await logOf()).map((entry) => [entry.Status, entry.MessageId, entry.Attempts]))
      .toEqual([['Delivered', hook?.headers['webhook-id'], 1]]);
    const log = await logOf();
    // "Send again": the same webhook-id, so the receiver can tell it already has it.
    const resent = await t.call({
      method: 'POST',
      url: `/api/Admin/Alerts/Deliveries/${log[0]?.Id}/Resend`,
      token: admin,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const [, again] = await receiver.waitFor(2);
    expect(again?.headers['webhook-id']).toBe(hook?.headers['webhook-id']);
    expect(again?.signatureValid).toBe(true);
  });

  it('alerts on API accounts created and rotated, sign-in methods reset and lock-outs, and nothing unasked', async () => {
    await addWebhook(['ApiAccountChanged', 'SignInMethodsReset', 'LockedOut']);
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: admin,
      payload: { UserName: 'DEMO\\svc-backup', Kind: 'Api', Permissions: { Security: ['Read'], Accounts: [] } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const apiId = (created.json() as { Id: number }).Id;
    await receiver.waitFor(1);
    expect(
      (await t.call({ method: 'POST', url: `/api/Admin/Accounts/${apiId}/Secret`, token: admin })).statusCode,
    ).toBe(200);
    await receiver.waitFor(2);
    const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
      Id: number;
      UserName: string;
    }>;
    const auditor = accounts.find((account) => account.UserName === AUDITOR[0]);
    const reset = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${auditor?.Id}/SignInMethods/Reset`,
      token: admin,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await receiver.waitFor(3);
    // Wrong passwords until sign-ins are refused: one alert, however many refusals follow.
    let refused = 0;
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: OPERATOR[0], Password: 'not the password' },
      });
      if (response.statusCode === 429) refused += 1;
    }
    expect(refused).toBeGreaterThan(1);
    await receiver.waitFor(4);
    // A permission change was not asked for: it sends nothing.
    const changed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${auditor?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: [], Accounts: [] } },
    });
    expect(changed.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.map((hook) => bodyOf(hook).data.kind)).toEqual([
      'ApiAccountChanged',
      'ApiAccountChanged',
      'SignInMethodsReset',
      'LockedOut',
    ]);
    expect(receiver.received.every((hook) => hook.signatureValid)).toBe(true);
    expect(bodyOf(receiver.received[1] as ReceivedWebhook).data.summary).toBe(
      `${ADMIN[0]} rotated the secret of the API account DEMO\\svc-backup`,
    );
    expect(bodyOf(receiver.received[3] as ReceivedWebhook).data.summary).toContain(OPERATOR[0]);
  }, 30_000);

  it('alerts on a device waiting, a device approved for an account administrator and a code reported', async () => {
    await addWebhook(['DeviceWaiting', 'DeviceApprovedForAdmin', 'CodeReported']);
    const helpdesk = await t.login(...HELPDESK);
    // The administrator's own phone: waiting, then approved by the helpdesk.
    const phone = await enrollDevice(t, { token: admin });
    await receiver.waitFor(1);
    await decide(t, helpdesk, phone);
    await receiver.waitFor(2);
    // A phone of someone without Accounts permissions: waiting, but its approval is no alert.
    const auditor = await t.login(...AUDITOR);
    const auditorsPhone = await enrollDevice(t, { token: auditor });
    await receiver.waitFor(3);
    await decide(t, helpdesk, auditorsPhone);
    // The administrator reports a code they did not ask for.
    const instruction = parseBody(
      await t.call({ method: 'POST', url: '/api/Instructions', token: admin, payload: { Name: 'Open the vault' } }),
      Instruction,
    );
    const report = await deviceCall(t, phone.DeviceToken, {
      method: 'POST',
      url: `/api/Device/Pushes/${instruction.Id}/Report`,
    });
    expect(report.statusCode, report.body).toBe(204);
    await receiver.waitFor(4);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const bodies = receiver.received.map((hook) => bodyOf(hook).data);
    expect(bodies.map((data) => data.kind)).toEqual([
      'DeviceWaiting',
      'DeviceApprovedForAdmin',
      'DeviceWaiting',
      'CodeReported',
    ]);
    expect(bodies[0]?.url).toBe(`https://tachyon.acme.example/authorization-requests/${phone.AuthorizationRequestId}`);
    expect(bodies[1]?.summary).toBe(
      `${HELPDESK[0]} approved a new device for ${ADMIN[0]}, who holds Accounts permissions`,
    );
    expect(bodies[3]?.url).toBe(`https://tachyon.acme.example/people/${encodeURIComponent(ADMIN[0])}`);
    // No code travels in an alert.
    for (const hook of receiver.received) expect(hook.body).not.toMatch(/\b\d{6}\b/);
  }, 30_000);

  const changeOperatorPermissions = async () => {
    const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
      Id: number;
      UserName: string;
    }>;
    const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
    const started = Date.now();
    const response = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read'], Accounts: [] } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return Date.now() - started;
  };

  it('never holds up the request that caused an alert, however slow the receiver', async () => {
    await addWebhook(['PermissionsChanged']);
    receiver.delayMs = 3000;
    try {
      expect(await changeOperatorPermissions()).toBeLessThan(1000);
      const [hook] = await receiver.waitFor(1, 10_000);
      expect(hook?.signatureValid).toBe(true);
    } finally {
      receiver.delayMs = 0;
    }
  }, 20_000);

  it('has the alert in the outbox by the time the request that caused it is answered', async () => {
    // The same service, its audit lines heard: the database is busy the moment the change is recorded, so an alert
    // queued after the change had committed (rather than with it) would still be waiting when the answer went out.
    await t.close();
    let heard = (_line: string) => {};
    t = await createTestApp(
      { alertWebhookAllowOrigins: [receiver.origin], publicUrl: 'https://tachyon.acme.example' },
      { auditSink: { write: (line) => heard(line) } },
    );
    admin = await t.login(...ADMIN);
    await addWebhook(['PermissionsChanged']);
    // Nothing is delivered: the outbox's row is all that would outlive a crash right after the answer.
    receiver.status = 500;
    const busy = () =>
      t.database.db.transaction().execute(async (trx) => {
        // PostgreSQL's other connections go on: the outbox's table is held instead.
        if (t.database.dialect === 'postgres') await sql`lock table alert_deliveries in exclusive mode`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 500));
      });
    heard = (line) => {
      if (line.includes('"account-changed"')) void busy();
    };
    await changeOperatorPermissions();
    // Read at once: what a process killed right after its answer would leave behind.
    const queued = await t.database.db.selectFrom('alert_deliveries').select('message_id').execute();
    expect(queued).toHaveLength(1);
  }, 30_000);

  /** The operator's account and its grants as stored. */
  const operatorAccount = async () => {
    const row = await t.database.db
      .selectFrom('principals')
      .select('id')
      .where('user_name', '=', OPERATOR[0])
      .executeTakeFirstOrThrow();
    const grants = await t.database.db
      .selectFrom('permission_grants')
      .select(['entity', 'permission'])
      .where('principal_id', '=', row.id)
      .orderBy('entity')
      .orderBy('permission')
      .execute();
    return { id: row.id, grants: grants.map((grant) => `${grant.entity} ${grant.permission}`) };
  };
  const outboxRows = async () => (await t.database.db.selectFrom('alert_deliveries').select('id').execute()).length;
  const putOperatorPermissions = (id: number, security: string[]) =>
    t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: security, Accounts: [] } },
    });

  it('stores no change whose alert cannot be written to the outbox: both commit or neither', async () => {
    await addWebhook(['PermissionsChanged']);
    receiver.status = 500;
    // The database itself refuses the outbox's row (a real failure of the insert, no stand-in).
    if (t.database.dialect === 'postgres') {
      await sql`create function refuse_alert() returns trigger language plpgsql as $$
        begin raise exception 'the outbox refuses'; end $$`.execute(t.database.db);
      await sql`create trigger refuse_alert before insert on alert_deliveries
        for each row execute function refuse_alert()`.execute(t.database.db);
    } else {
      await sql`create trigger refuse_alert before insert on alert_deliveries
        begin select raise(abort, 'the outbox refuses'); end`.execute(t.database.db);
    }
    const before = await operatorAccount();
    expectProblem(await putOperatorPermissions(before.id, ['Read', 'Write']), 500, 'internal');
    expect((await operatorAccount()).grants).toEqual(before.grants);
    const history = await t.database.db
      .selectFrom('account_history')
      .select('action')
      .where('principal_id', '=', before.id)
      .where('action', '=', 'PermissionsChanged')
      .execute();
    expect(history).toEqual([]);
    expect(await outboxRows()).toBe(0);
    // Once the outbox takes rows again, the same change is made with its alert.
    await sql`drop trigger refuse_alert${sql.raw(t.database.dialect === 'postgres' ? ' on alert_deliveries' : '')}`.execute(
      t.database.db,
    );
    expect((await putOperatorPermissions(before.id, ['Read', 'Write'])).statusCode).toBe(200);
    expect((await operatorAccount()).grants).toEqual(['Security Read', 'Security Write']);
    expect(await outboxRows()).toBe(1);
  }, 30_000);

  it('leaves no alert in the outbox for a change whose transaction rolls back at its commit', async () => {
    await addWebhook(['PermissionsChanged']);
    receiver.status = 500;
    // A deferred foreign key the change breaks: every statement passes (the outbox's insert too), the COMMIT fails.
    await sql`create table commit_probe (principal_id integer references principals (id) deferrable initially deferred)`.execute(
      t.database.db,
    );
    if (t.database.dialect === 'postgres') {
      await sql`create function break_commit() returns trigger language plpgsql as $$
        begin insert into commit_probe values (-1); return new; end $$`.execute(t.database.db);
      await sql`create trigger break_commit after insert on permission_grants
        for each row execute function break_commit()`.execute(t.database.db);
    } else {
      await sql`create trigger break_commit after insert on permission_grants
        begin insert into commit_probe values (-1); end`.execute(t.database.db);
    }
    const before = await operatorAccount();
    expectProblem(await putOperatorPermissions(before.id, ['Read']), 500, 'internal');
    expect((await operatorAccount()).grants).toEqual(before.grants);
    expect(await outboxRows()).toBe(0);
  }, 30_000);

  it.runIf(testDatabaseServer() !== null)(
    "answers a write without waiting for another request's alert",
    async () => {
      await addWebhook(['PermissionsChanged']);
      receiver.status = 500;
      const { id } = await operatorAccount();
      const auditor = await t.database.db
        .selectFrom('principals')
        .select('id')
        .where('user_name', '=', AUDITOR[0])
        .executeTakeFirstOrThrow();
      // Another connection holds the outbox's table: the permission change waits to write its alert.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = t.database.db.transaction().execute(async (trx) => {
        await sql`lock table alert_deliveries in exclusive mode`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      const alerting = putOperatorPermissions(id, ['Read']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A change of its own that causes no alert is answered at once, the other's alert still outstanding.
      const started = Date.now();
      const unrelated = await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${auditor.id}/Email`,
        token: admin,
        payload: { Email: 'auditor@acme.example' },
      });
      expect(unrelated.statusCode, unrelated.body).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await outboxRows()).toBe(0);
      release();
      await holder;
      expect((await alerting).statusCode).toBe(200);
      expect(await outboxRows()).toBe(1);
    },
    30_000,
  );

  it('changes where a destination sends, checked as when it was added, and keeps it when no Target is given', async () => {
    const made = await addWebhook(['PermissionsChanged'], '/before');
    const url = `/api/Admin/Alerts/Destinations/${made.Id}`;
    const put = (payload: object) => t.call({ method: 'PUT', url, token: admin, payload });
    const moved = await put({ Name: 'SIEM', Events: ['PermissionsChanged'], Target: `${receiver.origin}/after` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ Target: `${receiver.origin}/…`, Signed: true });
    // A loopback address the operator did not allow, and an empty one, are refused as when adding.
    const refused = await put({ Name: 'SIEM', Events: ['PermissionsChanged'], Target: 'https://127.0.0.1:1/hook' });
    expect(errorPaths(expectProblem(refused, 400, 'validation'))).toEqual(['Target']);
    expectProblem(await put({ Name: 'SIEM', Events: ['PermissionsChanged'], Target: ' ' }), 400, 'validation');
    // Renamed without a Target: it still sends where it was moved, signed with the secret it had.
    const renamed = await put({ Name: 'SIEM (prod)', Events: ['PermissionsChanged'] });
    expect(renamed.json()).toMatchObject({ Name: 'SIEM (prod)' });
    await changeOperatorPermissions();
    const [hook] = await receiver.waitFor(1);
    expect(hook?.path).toBe('/after');
    expect(hook?.signatureValid).toBe(true);
  });

  it('posts Slack and Teams messages in their own formats, unsigned, with the link', async () => {
    for (const [Channel, path] of [
      ['Slack', '/slack'],
      ['Teams', '/teams'],
    ] as const) {
      const made = await t.call({
        method: 'POST',
        url: '/api/Admin/Alerts/Destinations',
        token: admin,
        payload: { Name: Channel, Channel, Target: `${receiver.origin}${path}`, Events: ['PermissionsChanged'] },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(parseBody(made, AlertDestinationWithSecret)).toMatchObject({ Secret: null, Signed: false });
    }
    await changeOperatorPermissions();
    await receiver.waitFor(2);
    const byPath = new Map(receiver.received.map((hook) => [hook.path, hook]));
    for (const hook of receiver.received) expect(hook.headers['webhook-signature']).toBeUndefined();
    const slack = JSON.parse(byPath.get('/slack')?.body ?? '{}') as { text: string };
    expect(slack.text.startsWith(`*${ADMIN[0]} changed the permissions of ${OPERATOR[0]}*\n`)).toBe(true);
    expect(slack.text).toMatch(/\n<https:\/\/tachyon\.acme\.example\/accounts\?account=\d+\|Open the account>$/);
    const teams = JSON.parse(byPath.get('/teams')?.body ?? '{}') as {
      type: string;
      attachments: Array<{ contentType: string; content: { actions: Array<{ url: string }> } }>;
    };
    expect(teams.type).toBe('message');
    expect(teams.attachments[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(teams.attachments[0]?.content.actions[0]?.url).toMatch(
      /^https:\/\/tachyon\.acme\.example\/accounts\?account=\d+$/,
    );
  });

  it('retries a failing receiver with the same webhook-id, and marks the destination failing', async () => {
    const made = await addWebhook(['PermissionsChanged']);
    receiver.status = 503;
    const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
      Id: number;
      UserName: string;
    }>;
    const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
    await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read'], Accounts: [] } },
    });
    const logOf = async () =>
      parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Alerts/Destinations/${made.Id}/Deliveries`, token: admin }),
        AlertDeliveryList,
      );
    const destination = async () =>
      parseBody(
        await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations', token: admin }),
        AlertDestinationList,
      )[0];
    // Each failed attempt waits longer before the next (the fake clock moves it on).
    // An attempt has failed once its next one is due later than now (while it runs, the count is up already).
    const failedAttempts = async () => {
      const [entry] = await logOf();
      return entry?.NextAttemptUtc && entry.NextAttemptUtc > t.clock.stamp() ? entry.Attempts : null;
    };
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await expect.poll(failedAttempts, { timeout: 5000 }).toBe(attempt);
      t.clock.advanceMinutes(60);
      // Sessions end while idle for so long: sign in again.
      admin = await t.login(...ADMIN);
    }
    const [pending] = await logOf();
    expect(pending?.Status).toBe('Pending');
    expect(pending?.LastError).toMatch(/answered HTTP 503/);
    expect((await destination())?.FailingSinceUtc).not.toBeNull();
    expect((await destination())?.Pending).toBe(1);
    // The receiver is back: the same message arrives, and the destination is well again.
    receiver.status = 200;
    t.clock.advanceMinutes(60);
    admin = await t.login(...ADMIN);
    const [hook] = await receiver.waitFor(1);
    expect(hook?.headers['webhook-id']).toBe(pending?.MessageId);
    expect(hook?.signatureValid).toBe(true);
    await expect.poll(async () => (await destination())?.FailingSinceUtc, { timeout: 5000 }).toBeNull();
  }, 30_000);

  it('gives up a day after it was queued, and says so in the log', async () => {
    const made = await addWebhook(['PermissionsChanged']);
    receiver.status = 500;
    const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
      Id: number;
      UserName: string;
    }>;
    await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${accounts.find((a) => a.UserName === OPERATOR[0])?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read'], Accounts: [] } },
    });
    const logOf = async () =>
      parseBody(
        await t.call({ method: 'GET', url: `/api/Admin/Alerts/Destinations/${made.Id}/Deliveries`, token: admin }),
        AlertDeliveryList,
      );
    await expect.poll(async () => (await logOf())[0]?.LastError ?? null, { timeout: 5000 }).not.toBeNull();
    t.clock.advanceMinutes(24 * 60);
    admin = await t.login(...ADMIN);
    await expect.poll(async () => (await logOf())[0]?.Status, { timeout: 5000 }).toBe('GaveUp');
  }, 20_000);

  it.runIf(testDatabaseServer() !== null)(
    'two processes on one PostgreSQL send each delivery once, in order per destination',
    async () => {
      const other = await secondProcess(t);
      try {
        const paths = ['/a', '/b', '/c', '/d'];
        for (const path of paths) await addWebhook(['PermissionsChanged'], path);
        receiver.secret = null;
        const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
          Id: number;
          UserName: string;
        }>;
        const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
        for (let change = 0; change < 5; change += 1) {
          const response = await t.call({
            method: 'PUT',
            url: `/api/Admin/Accounts/${operator?.Id}/Permissions`,
            token: admin,
            payload: { Permissions: { Security: change % 2 === 0 ? ['Read'] : [], Accounts: [] } },
          });
          expect(response.statusCode).toBe(200);
        }
        await receiver.waitFor(paths.length * 5);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const ids = receiver.received.map((hook) => hook.headers['webhook-id']);
        expect(ids).toHaveLength(paths.length * 5);
        expect(new Set(ids).size).toBe(ids.length);
        // Each destination heard its alerts in the order they happened, whichever process sent them.
        for (const path of paths) {
          const times = receiver.received
            .filter((hook) => hook.path === path)
            .map((hook) => (JSON.parse(hook.body) as { data: { facts: { Now: string } } }).data.facts.Now);
          expect(times).toEqual(['Security Read', 'none', 'Security Read', 'none', 'Security Read']);
        }
      } finally {
        await other.close();
      }
    },
    30_000,
  );
});

describe('alert destinations: bad input and permissions', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login(...ADMIN);
  });
  afterAll(() => t.close());

  const create = (payload: unknown, token = admin) =>
    t.call({ method: 'POST', url: '/api/Admin/Alerts/Destinations', token, payload: payload as object });
  const webhook = { Name: 'Hook', Channel: 'Webhook', Target: 'https://hooks.example.com/x', Events: ['LockedOut'] };

  it('refuses loopback and private webhook URLs unless the operator allows them', async () => {
    for (const Target of [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1/hook',
      'https://10.0.0.7/hook',
      'https://[::1]/x',
    ]) {
      const problem = expectProblem(await create({ ...webhook, Target }), 400, 'validation');
      expect(errorPaths(problem)).toEqual(['Target']);
    }
    expect(
      expectProblem(await create({ ...webhook, Target: 'https://u:p@hooks.example.com/' }), 400, 'validation').detail,
    ).toMatch(/user name or password/);
    expect(expectProblem(await create({ ...webhook, Target: 'not a url' }), 400, 'validation').detail).toMatch(
      /not a URL/,
    );
  });

  it('refuses an empty name, no events, an unknown event or channel, and email without SMTP_URL', async () => {
    expect(errorPaths(expectProblem(await create({ ...webhook, Name: ' ' }), 400, 'validation'))).toEqual(['Name']);
    expect(errorPaths(expectProblem(await create({ ...webhook, Events: [] }), 400, 'validation'))).toEqual(['Events']);
    expectProblem(await create({ ...webhook, Events: ['Everything'] }), 400, 'validation');
    expectProblem(await create({ ...webhook, Channel: 'Pager' }), 400, 'validation');
    const email = expectProblem(
      await create({ ...webhook, Channel: 'Email', Target: 'soc@acme.example' }),
      400,
      'validation',
    );
    expect(email.detail).toMatch(/SMTP_URL/);
  });

  it('answers 404 for an unknown destination or delivery, and 400 for a malformed id', async () => {
    for (const [method, url] of [
      ['PUT', '/api/Admin/Alerts/Destinations/4242'],
      ['DELETE', '/api/Admin/Alerts/Destinations/4242'],
      ['POST', '/api/Admin/Alerts/Destinations/4242/Secret'],
      ['GET', '/api/Admin/Alerts/Destinations/4242/Deliveries'],
      ['POST', '/api/Admin/Alerts/Deliveries/4242/Resend'],
    ] as const) {
      const payload = method === 'PUT' ? { Name: 'x', Events: ['LockedOut'] } : undefined;
      expectProblem(await t.call({ method, url, token: admin, ...(payload ? { payload } : {}) }), 404, 'not-found');
    }
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations/abc/Deliveries', token: admin }),
      400,
      'validation',
    );
  });

  it('is for account administrators: Security Write alone is refused', async () => {
    const helpdesk = await t.login(...HELPDESK);
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations', token: helpdesk }),
      403,
      'forbidden',
    );
    expectProblem(await create(webhook, helpdesk), 403, 'forbidden');
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Alerts/Destinations' }), 401, 'unauthenticated');
  });
});
