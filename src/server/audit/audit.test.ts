import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_READERS, Account, AccountList } from '../../shared/contract/index.ts';
import { AuditLines, type AuditRecord } from '../test/audit-lines.ts';
import { decide, deviceCall, enrollDevice } from '../test/device-helpers.ts';
import {
  ADMIN,
  demoCreateInstruction,
  demoCreateRequest,
  HELPDESK,
  parseBody,
  pushedToken,
  useTestApp,
  wrongToken,
} from '../test/harness.ts';
import { AUDIT_ACTIONS, auditLine } from './audit-event.ts';
import { openAuditSink } from './audit-log.ts';

const STRONG = 'violet harbour lantern 42';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

describe('the audit stream', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({ options: { auditSink: lines }, signIn: { admin: ADMIN } });
  /** The one record of an action written since the last clear(). */
  const only = (action: string): AuditRecord => {
    const records = lines.of(action);
    expect(records, `${action} in ${lines.lines.join('')}`).toHaveLength(1);
    return records[0] as AuditRecord;
  };
  const call = (options: Parameters<typeof t.call>[0]) =>
    t.call({ ...options, headers: { 'user-agent': BROWSER, ...options.headers } });

  it('writes one ECS line per event: time, action, outcome, who, from where, with what, about what', async () => {
    lines.clear();
    const response = await call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: ADMIN[1] },
    });
    expect(response.statusCode).toBe(200);
    expect(lines.lines).toHaveLength(1);
    expect(lines.lines[0]?.endsWith('}\n')).toBe(true);
    expect(lines.lines[0]?.slice(0, -1)).not.toContain('\n');
    expect(only('sign-in')).toEqual({
      '@timestamp': '2026-11-21T09:00:00.000Z',
      ecs: { version: '8.11.0' },
      event: {
        kind: 'event',
        category: ['authentication', 'session'],
        type: ['start'],
        action: 'sign-in',
        outcome: 'success',
      },
      user: { name: ADMIN[0] },
      source: { ip: '127.0.0.1' },
      user_agent: { original: BROWSER },
      service: { name: 'tachyon-consumer' },
      tachyon: { details: { accountKind: 'Person' } },
    });
  });

  it('sign-in failures carry their reason code and never the password', async () => {
    lines.clear();
    const typed = 'Wrong#Password#2026';
    const response = await call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: ADMIN[0], Password: typed },
    });
    expect(response.statusCode).toBe(401);
    const record = only('sign-in');
    expect(record.event).toMatchObject({ outcome: 'failure', reason: 'invalid-credentials' });
    expect(record.user?.name).toBe(ADMIN[0]);
    expect(lines.lines.join('')).not.toContain(typed);
    // HTTP Basic credentials are a sign-in too.
    lines.clear();
    const basic = Buffer.from(`${ADMIN[0]}:${typed}`).toString('base64');
    await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(only('sign-in').event).toMatchObject({ outcome: 'failure', reason: 'invalid-credentials' });
    expect(lines.lines.join('')).not.toContain(typed);
  });

  it('sign-out, and sessions ending at their deadline or signed out everywhere', async () => {
    const token = await t.login(...HELPDESK);
    lines.clear();
    expect((await call({ method: 'DELETE', url: '/api/Consumer/Authentication/Session', token })).statusCode).toBe(204);
    expect(only('sign-out')).toMatchObject({ event: { outcome: 'success' }, user: { name: HELPDESK[0] } });

    const idle = await t.login(...HELPDESK);
    lines.clear();
    t.clock.advanceMinutes(31);
    expect((await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: idle })).statusCode).toBe(
      401,
    );
    await expect.poll(() => lines.of('session-ended').length).toBe(1);
    expect(only('session-ended')).toMatchObject({
      event: { outcome: 'success' },
      user: { name: HELPDESK[0] },
      tachyon: { entity: { type: 'Account' }, details: { cause: 'idle-timeout' } },
    });
    // Told once: the same token again is refused without another event.
    await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: idle });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.of('session-ended')).toHaveLength(1);

    const admin = await t.login(...ADMIN);
    const helpdeskId = await accountId(admin, HELPDESK[0]);
    lines.clear();
    await call({ method: 'POST', url: `/api/Admin/Accounts/${helpdeskId}/SignOut`, token: admin });
    expect(only('session-ended')).toMatchObject({
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'Account', id: helpdeskId }, details: { cause: 'signed-out-everywhere' } },
    });
  });

  it('authorization decisions (#5) and push user status changes (#10), refusals with their reason', async () => {
    const request = await demoCreateRequest(t, tokens.admin);
    lines.clear();
    const decision = { RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true };
    const url = '/api/Consumer/Authentication/AuthorizeDevice';
    expect((await call({ method: 'POST', url, token: tokens.admin, payload: decision })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url, token: tokens.admin, payload: decision })).statusCode).toBe(409);
    const [decided, again] = lines.of('authorization-decided');
    expect(decided).toMatchObject({
      event: { outcome: 'success', category: ['iam'] },
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'AuthorizationRequest', id: request.Id }, details: { authorized: true } },
    });
    expect(again?.event).toMatchObject({ outcome: 'failure', reason: 'already-decided' });

    const users = (await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin })).json<
      { Id: number }[]
    >();
    const pushUser = users[0]?.Id as number;
    lines.clear();
    const update = { method: 'PUT', url: '/api/Consumer/PushMessageUsers', token: tokens.admin } as const;
    expect((await call({ ...update, payload: { Id: pushUser, Status: 2 } })).statusCode).toBe(200);
    expect((await call({ ...update, payload: { Id: 999_999, Status: 2 } })).statusCode).toBe(404);
    const [changed, missing] = lines.of('push-user-status-changed');
    expect(changed).toMatchObject({
      event: { outcome: 'success' },
      tachyon: { entity: { type: 'PushMessageUser', id: pushUser }, details: { status: 'Disabled' } },
    });
    expect(missing?.event).toMatchObject({ outcome: 'failure', reason: 'not-found' });
  });

  it('account creation, changes, disabling and password resets', async () => {
    lines.clear();
    const created = await call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: tokens.admin,
      payload: { UserName: 'CORP\\audited', Password: STRONG, Permissions: { Security: ['Read'], Accounts: [] } },
    });
    const id = parseBody(created, Account).Id;
    expect(only('account-created')).toMatchObject({
      event: { outcome: 'success', type: ['user', 'creation'] },
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'Account', id } },
    });
    const base = `/api/Admin/Accounts/${id}`;
    await call({
      method: 'PUT',
      url: `${base}/Permissions`,
      token: tokens.admin,
      payload: { Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
    });
    await call({
      method: 'PUT',
      url: `${base}/Email`,
      token: tokens.admin,
      payload: { Email: 'audited@acme.example' },
    });
    await call({ method: 'POST', url: `${base}/Password`, token: tokens.admin, payload: { Password: STRONG } });
    await call({ method: 'PUT', url: `${base}/Enabled`, token: tokens.admin, payload: { Enabled: false } });
    await call({ method: 'PUT', url: `${base}/Enabled`, token: tokens.admin, payload: { Enabled: true } });
    expect(lines.of('account-changed').map((record) => record.tachyon?.details?.change)).toEqual([
      'permissions',
      'email',
      'enabled',
    ]);
    expect(only('account-password-reset').tachyon?.entity).toEqual({ type: 'Account', id });
    expect(only('account-disabled')).toMatchObject({ event: { outcome: 'success' }, tachyon: { entity: { id } } });
    expect(lines.lines.join('')).not.toContain(STRONG);

    lines.clear();
    const duplicate = await call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: tokens.admin,
      payload: { UserName: 'CORP\\audited', Password: STRONG },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(only('account-created').event).toMatchObject({ outcome: 'failure', reason: 'account-exists' });
  });

  it('instructions created, tokens accepted and refused, devices enrolled and removed', async () => {
    lines.clear();
    const instruction = await demoCreateInstruction(t, tokens.admin);
    expect(only('instruction-created')).toMatchObject({
      event: { outcome: 'success' },
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'Instruction', id: instruction.Id } },
    });
    const code = await pushedToken(t, tokens.admin, instruction.Id);
    const submit = (token: string) =>
      call({
        method: 'POST',
        url: '/api/Consumer/Authentication/Instruction/Token',
        token: tokens.admin,
        payload: { Id: instruction.Id, Token: token },
      });
    expect((await submit(wrongToken(code))).statusCode).toBe(422);
    expect((await submit(code)).statusCode).toBe(200);
    expect(only('token-refused')).toMatchObject({
      event: { outcome: 'failure', reason: 'invalid-token', category: ['authentication'] },
      tachyon: { entity: { type: 'Instruction', id: instruction.Id } },
    });
    expect(only('token-accepted')).toMatchObject({ event: { outcome: 'success', category: ['authentication'] } });
    expect(lines.lines.join('')).not.toContain(code);

    lines.clear();
    const enrolled = await enrollDevice(t, { token: tokens.admin });
    expect(only('device-enrolled')).toMatchObject({
      event: { outcome: 'success' },
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'AuthorizationRequest', id: enrolled.AuthorizationRequestId } },
    });
    await decide(t, tokens.admin, enrolled);
    lines.clear();
    const removed = await deviceCall(t, enrolled.DeviceToken, {
      method: 'DELETE',
      url: '/api/Device',
      headers: { 'user-agent': BROWSER },
    });
    expect(removed.statusCode).toBe(204);
    expect(only('device-removed')).toMatchObject({
      event: { outcome: 'success', type: ['deletion'] },
      user: { name: ADMIN[0] },
      user_agent: { original: BROWSER },
      tachyon: { entity: { type: 'AuthorizationRequest', id: enrolled.AuthorizationRequestId } },
    });
  });

  it('codes reported as "This wasn\'t me", and reports of a code that never reached the device', async () => {
    const helpdesk = await t.login(...HELPDESK);
    const phone = await enrollDevice(t, { token: helpdesk });
    await decide(t, tokens.admin, phone);
    const instruction = await demoCreateInstruction(t, helpdesk);
    const report = (id: number) =>
      deviceCall(t, phone.DeviceToken, {
        method: 'POST',
        url: `/api/Device/Pushes/${id}/Report`,
        headers: { 'user-agent': BROWSER },
      });
    lines.clear();
    expect((await report(instruction.Id + 1000)).statusCode).toBe(404);
    expect(only('code-reported')).toMatchObject({
      event: { outcome: 'failure', reason: 'not-found', category: ['authentication', 'intrusion_detection'] },
      user: { name: HELPDESK[0] },
      tachyon: {
        entity: { type: 'Instruction', id: instruction.Id + 1000 },
        details: { deviceId: expect.any(Number) },
      },
    });
    lines.clear();
    expect((await report(instruction.Id)).statusCode).toBe(204);
    expect(only('code-reported')).toMatchObject({
      event: { outcome: 'success', type: ['info'] },
      user: { name: HELPDESK[0] },
      user_agent: { original: BROWSER },
      tachyon: { entity: { type: 'Instruction', id: instruction.Id }, details: { deviceId: expect.any(Number) } },
    });
  });

  it('backups taken and demo resets', async () => {
    lines.clear();
    expect((await call({ method: 'GET', url: '/api/Admin/Backup', token: tokens.admin })).statusCode).toBe(
      t.database.dialect === 'postgres' ? 409 : 200,
    );
    expect(only('backup-taken')).toMatchObject({
      event: { outcome: t.database.dialect === 'postgres' ? 'failure' : 'success', category: ['database'] },
      user: { name: ADMIN[0] },
      tachyon: { entity: { type: 'Database' }, details: { trigger: 'request' } },
    });
    lines.clear();
    expect((await call({ method: 'POST', url: '/api/Demo/Reset', token: tokens.admin })).statusCode).toBe(204);
    expect(only('demo-reset')).toMatchObject({ event: { outcome: 'success' }, user: { name: ADMIN[0] } });
  });

  async function accountId(token: string, userName: string): Promise<number> {
    const list = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token }), AccountList);
    return list.find((account) => account.UserName === userName)?.Id as number;
  }
});

describe('audit lines', () => {
  it('name every action the stream documents, a failure always with a reason', () => {
    expect(AUDIT_ACTIONS).toHaveLength(40);
    const line = JSON.parse(auditLine({ action: 'token-refused', outcome: 'failure' }, new Date(0)));
    expect(line.event.reason).toBe('unknown');
    const long = JSON.parse(
      auditLine({ action: 'sign-in', outcome: 'success', userName: 'x'.repeat(5000) }, new Date(0)),
    );
    expect(long.user.name).toHaveLength(256);
  });

  it('say for every action who may read its events, and withhold account administration from Security alone', () => {
    // The record's type already demands an entry per action; this holds a value cast past it, or one added at runtime.
    for (const action of AUDIT_ACTIONS) expect(['security', 'accounts'], action).toContain(ACTIVITY_READERS[action]);
    const accounts = AUDIT_ACTIONS.filter((action) => ACTIVITY_READERS[action] === 'accounts');
    expect(accounts).toEqual(
      expect.arrayContaining([
        'sign-in',
        'step-up',
        'api-account-created',
        'devices-disabled',
        'temporary-code-issued',
        'temporary-code-revoked',
        'temporary-code-used',
      ]),
    );
    expect(accounts).not.toContain('authorization-decided');
    expect(accounts).not.toContain('code-reported');
  });

  it('go to a file that reopens on SIGHUP, so a rotated file is followed by a new one', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-file-'));
    try {
      const file = path.join(folder, 'audit.log');
      const sink = openAuditSink(file);
      sink.write('{"first":1}\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      fs.renameSync(file, `${file}.1`);
      process.emit('SIGHUP', 'SIGHUP');
      await new Promise((resolve) => setTimeout(resolve, 100));
      sink.write('{"second":2}\n');
      await sink.close?.();
      expect(fs.readFileSync(`${file}.1`, 'utf8')).toBe('{"first":1}\n');
      expect(fs.readFileSync(file, 'utf8')).toBe('{"second":2}\n');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // Closed: the signal no longer reaches it.
      expect(process.listenerCount('SIGHUP')).toBe(0);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
