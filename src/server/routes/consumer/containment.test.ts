import { describe, expect, it } from 'vitest';
import { Account, CreatedAccount, DevicesDisabled, Person } from '../../../shared/contract/index.ts';
import { upsertPrincipal } from '../../domain/identity/principals.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { decide, enrollDevice } from '../../test/device-helpers.ts';
import { ADMIN, DEMO_STAFF, expectProblem, HELPDESK, OPERATOR, parseBody, useTestApp } from '../../test/harness.ts';

const accountIdOf = async (t: { call: (o: object) => Promise<{ json: () => unknown }> }, token: string, name: string) =>
  parseBody((await t.call({ method: 'GET', url: `/api/People/${encodeURIComponent(name)}`, token })) as never, Person)
    .AccountState?.Id ?? 0;

describe('containment: the helpdesk contains people who hold no Accounts permission', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({
    options: { auditSink: lines },
    signIn: DEMO_STAFF,
  });

  /** A person with Contain and nothing else, and one with Security Write but no Contain. */
  async function containerAndSecurityWriter() {
    await upsertPrincipal(
      t.database.db,
      {
        userName: 'TEST\\container',
        password: 'Quiet lantern 42',
        grants: [{ entity: 'Accounts', permission: 'Contain' }],
        now: t.clock.now(),
      },
      1024,
    );
    await t.addPrincipal('TEST\\writer', 'Quiet lantern 42', ['Read', 'Write']);
    return {
      container: await t.login('TEST\\container', 'Quiet lantern 42'),
      writer: await t.login('TEST\\writer', 'Quiet lantern 42'),
    };
  }

  it('signs a person out everywhere and disables then re-enables their account, each use audited as containment', async () => {
    const operator = await accountIdOf(t, tokens.helpdesk, OPERATOR[0]);
    const out = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${operator}/SignOut`,
      token: tokens.helpdesk,
    });
    expect(out.statusCode, out.body).toBe(200);
    expectProblem(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: tokens.operator }),
      401,
      'unauthenticated',
    );
    const ended = lines.of('session-ended').at(-1);
    expect(ended?.tachyon?.details).toMatchObject({ cause: 'signed-out-everywhere', containment: true });
    expect(ended?.user?.name).toBe(HELPDESK[0]);

    const disabled = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator}/Enabled`,
      token: tokens.helpdesk,
      payload: { Enabled: false },
    });
    expect(parseBody(disabled, Account).Enabled).toBe(false);
    expect(lines.of('account-disabled').at(-1)?.tachyon?.details).toMatchObject({ containment: true });
    expectProblem(
      await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        payload: { UserName: OPERATOR[0], Password: OPERATOR[1] },
      }),
      401,
      'invalid-credentials',
    );
    const enabled = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator}/Enabled`,
      token: tokens.helpdesk,
      payload: { Enabled: true },
    });
    expect(parseBody(enabled, Account).Enabled).toBe(true);
    await t.login(...OPERATOR);
  });

  it('never reaches an account holding Accounts permissions, and never changes permissions', async () => {
    const admin = await accountIdOf(t, tokens.helpdesk, ADMIN[0]);
    const refusedOut = expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${admin}/SignOut`, token: tokens.helpdesk }),
      403,
      'forbidden',
    );
    expect(refusedOut.detail).toContain('holds Accounts permissions');
    expectProblem(
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${admin}/Enabled`,
        token: tokens.helpdesk,
        payload: { Enabled: false },
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${admin}/SignInMethods/Reset`, token: tokens.helpdesk }),
      403,
      'forbidden',
    );
    expect(lines.of('session-ended').at(-1)?.event.outcome).toBe('failure');
    // The admin's session still works.
    const session = await t.call({ method: 'GET', url: '/api/Consumer/Authentication/Session', token: tokens.admin });
    expect(session.statusCode).toBe(200);
    // Another helpdesk person holds Contain, an Accounts permission: out of reach too.
    const { container } = await containerAndSecurityWriter();
    const helpdesk = await accountIdOf(t, tokens.admin, HELPDESK[0]);
    expectProblem(
      await t.call({ method: 'POST', url: `/api/Admin/Accounts/${helpdesk}/SignOut`, token: container }),
      403,
      'forbidden',
    );
    const operator = await accountIdOf(t, tokens.admin, OPERATOR[0]);
    expectProblem(
      await t.call({
        method: 'PUT',
        url: `/api/Admin/Accounts/${operator}/Permissions`,
        token: tokens.helpdesk,
        payload: { Permissions: { Security: ['Read'], Accounts: [] } },
      }),
      403,
      'forbidden',
    );
  });

  it('creates a person’s account with no permissions, and nothing more', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: tokens.helpdesk,
      payload: { UserName: 'ACME\\new.person', Password: 'Quiet lantern harbour 7' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(parseBody(created, CreatedAccount).Permissions).toEqual({ Security: [], Accounts: [] });
    for (const payload of [
      {
        UserName: 'ACME\\reader',
        Password: 'Quiet lantern harbour 7',
        Permissions: { Security: ['Read'], Accounts: [] },
      },
      {
        UserName: 'ACME\\contain',
        Password: 'Quiet lantern harbour 7',
        Permissions: { Security: [], Accounts: ['Contain'] },
      },
      { UserName: 'ACME\\script', Kind: 'Api' },
    ]) {
      const refused = expectProblem(
        await t.call({ method: 'POST', url: '/api/Admin/Accounts', token: tokens.helpdesk, payload }),
        403,
        'forbidden',
      );
      expect(refused.detail).toContain('no permissions');
    }
  });

  it('disables a person’s devices and resets their sign-in methods', async () => {
    const phone = await enrollDevice(t, { token: tokens.operator });
    await decide(t, tokens.admin, phone);
    const { container } = await containerAndSecurityWriter();
    const url = `/api/People/${encodeURIComponent(OPERATOR[0])}/Devices/Disable`;
    const disabled = await t.call({ method: 'POST', url, token: container });
    // The demo's own phone of the operator and the one just approved.
    expect(parseBody(disabled, DevicesDisabled).Disabled).toBe(2);
    expect(lines.of('devices-disabled').at(-1)?.tachyon?.details).toMatchObject({ containment: true });
    const again = await t.call({ method: 'POST', url, token: container });
    expect(parseBody(again, DevicesDisabled).Disabled).toBe(0);
    const person = parseBody(
      await t.call({ method: 'GET', url: `/api/People/${encodeURIComponent(OPERATOR[0])}`, token: tokens.admin }),
      Person,
    );
    expect(person.Devices.filter((device) => device.Status === 1)).toEqual([]);

    const operator = await accountIdOf(t, tokens.helpdesk, OPERATOR[0]);
    const reset = await t.call({
      method: 'POST',
      url: `/api/Admin/Accounts/${operator}/SignInMethods/Reset`,
      token: tokens.helpdesk,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(lines.of('sign-in-methods-reset').at(-1)?.tachyon?.details).toMatchObject({ containment: true });
  });

  it('Contain alone enrols a device for a person, but not for an administrator', async () => {
    const { container } = await containerAndSecurityWriter();
    const link = (name: string) =>
      t.call({ method: 'POST', url: `/api/People/${encodeURIComponent(name)}/EnrollmentLinks`, token: container });
    expect((await link(OPERATOR[0])).statusCode).toBe(201);
    expectProblem(await link(ADMIN[0]), 403, 'accounts-write-required');
  });

  it('refuses each action to callers without Write on Accounts nor Contain', async () => {
    const { writer } = await containerAndSecurityWriter();
    const operator = await accountIdOf(t, tokens.admin, OPERATOR[0]);
    for (const token of [writer, tokens.auditor, tokens.operator]) {
      expectProblem(
        await t.call({ method: 'POST', url: `/api/Admin/Accounts/${operator}/SignOut`, token }),
        403,
        'forbidden',
      );
      expectProblem(
        await t.call({
          method: 'PUT',
          url: `/api/Admin/Accounts/${operator}/Enabled`,
          token,
          payload: { Enabled: false },
        }),
        403,
        'forbidden',
      );
    }
    expectProblem(
      await t.call({
        method: 'POST',
        url: `/api/People/${encodeURIComponent(OPERATOR[0])}/Devices/Disable`,
        token: tokens.auditor,
      }),
      403,
      'forbidden',
    );
  });

  it('answers an unknown account 404 and a malformed id 400', async () => {
    expectProblem(
      await t.call({ method: 'POST', url: '/api/Admin/Accounts/99999/SignOut', token: tokens.helpdesk }),
      404,
      'not-found',
    );
    expectProblem(
      await t.call({ method: 'POST', url: '/api/Admin/Accounts/abc/SignOut', token: tokens.helpdesk }),
      400,
      'validation',
    );
  });
});
