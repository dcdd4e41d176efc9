import { afterEach, describe, expect, it } from 'vitest';
import { SetupProgress } from '../../../shared/contract/index.ts';
import { decide, enrollDevice } from '../../test/device-helpers.ts';
import { createTestApp, expectProblem, OPERATOR, parseBody, type TestApp } from '../../test/harness.ts';

const ROOT = ['CORP\\root', 'violet harbour lantern 42'] as const;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const progress = async (app: TestApp, token: string) =>
  parseBody(await app.call({ method: 'GET', url: '/api/Admin/Setup', token }), SetupProgress);

describe('a new organisation’s set-up steps', () => {
  it('each ticks itself from the service’s own state as it is done', async () => {
    t = await createTestApp({ demo: false, adminUserName: ROOT[0], adminPassword: ROOT[1] });
    const root = await t.login(...ROOT);
    expect(await progress(t, root)).toEqual({
      Demo: false,
      PublicUrl: 'http://localhost:8080',
      PublicUrlReachable: false,
      AccountsAdded: false,
      DirectoryConnected: false,
      DeviceEnrolled: false,
      CodeSent: false,
    });

    const created = await t.call({
      method: 'POST',
      url: '/api/Admin/Accounts',
      token: root,
      payload: {
        UserName: 'CORP\\jo',
        Password: 'quiet orchard telescope 7',
        Permissions: { Security: ['Read'], Accounts: [] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await progress(t, root)).AccountsAdded).toBe(true);

    await decide(t, root, await enrollDevice(t, { token: root }));
    expect((await progress(t, root)).DeviceEnrolled).toBe(true);

    const sent = await t.call({
      method: 'POST',
      url: '/api/Instructions',
      token: root,
      payload: { Name: 'First code', Scheduled: false },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await progress(t, root)).toMatchObject({ DeviceEnrolled: true, CodeSent: true });
  });

  it('counts an address phones can open as set', async () => {
    t = await createTestApp({ publicUrl: 'https://tachyon.acme.example' });
    const admin = await t.login('DEMO\\admin', 'Admin#2026');
    expect(await progress(t, admin)).toMatchObject({ Demo: true, PublicUrlReachable: true });
  });

  it('is refused without Security Read', async () => {
    t = await createTestApp();
    const operator = await t.login(...OPERATOR);
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Setup', token: operator }), 403, 'forbidden');
  });
});
