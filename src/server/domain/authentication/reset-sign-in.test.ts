import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../../test/service-process.ts';

/**
 * The break-glass administrator's passkey is gone: the operator runs `npm run reset-sign-in` on the host. Proven on
 * the real command against the real service's embedded database, which it must not touch while the service runs.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);

async function call(api: string, method: string, route: string, authorization?: string, payload?: unknown) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe('npm run reset-sign-in', () => {
  const folders: string[] = [];
  const services: ServiceProcess[] = [];
  beforeAll(() => ensureServerBuilt(), 120_000);
  afterAll(async () => {
    for (const service of services) await stopService(service);
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  });

  it('refuses while the service holds the database, then removes the factors and sessions, audited', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-reset-data-'));
    folders.push(dataDir);
    const auditFile = path.join(dataDir, 'audit.log');
    const env = { DATA_DIR: dataDir, DEMO: 'on', PASSWORD_HASH_COST: '1024', AUDIT_LOG: auditFile };
    const reset = (userName: string) =>
      run(TSX, [path.join(ROOT, 'scripts/reset-sign-in.ts'), userName], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
      }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (failed: { code: number; stdout: string; stderr: string }) => failed,
      );

    const service = await startService(env);
    services.push(service);
    const signIn = await call(service.api, 'POST', '/Consumer/Authentication', undefined, {
      UserName: ADMIN[0],
      Password: ADMIN[1],
    });
    const token = `Bearer ${signIn.body.Token as string}`;
    const codes = await call(service.api, 'POST', '/Admin/Accounts/Me/RecoveryCodes', token);
    expect(codes.status, JSON.stringify(codes.body)).toBe(201);

    // Running: the embedded database could be mid-write, so nothing is touched.
    const refused = await reset(ADMIN[0]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the service is running .* Stop it, run this again/);
    expect((await call(service.api, 'GET', '/Admin/Accounts', token)).status).toBe(200);

    service.child.kill('SIGTERM');
    await service.exited;

    const unknown = await reset('DEMO\\nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No account is named DEMO\\nobody/);

    // The name as typed in any case, like at sign-in.
    const done = await reset(ADMIN[0].toUpperCase());
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(
      /^Reset the sign-in of DEMO\\admin: removed 0 passkeys, 10 recovery codes and 0 devices, ended 1 session\.\n/,
    );
    const audit = fs
      .readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: { action: string }; user?: { name: string }; tachyon?: unknown });
    expect(audit.find((line) => line.event.action === 'sign-in-methods-reset')).toMatchObject({
      user: { name: 'npm run reset-sign-in' },
      tachyon: { details: { account: ADMIN[0], recoveryCodesRemoved: 10, sessionsEnded: 1 } },
    });

    // Back up: the old session is over, the codes are gone, and the account's history says who reset it.
    const restarted = await startService(env);
    services.push(restarted);
    expect((await call(restarted.api, 'GET', '/Admin/Accounts', token)).status).toBe(401);
    const again = await call(restarted.api, 'POST', '/Consumer/Authentication', undefined, {
      UserName: ADMIN[0],
      Password: ADMIN[1],
    });
    expect(again.status).toBe(200);
    const methods = await call(restarted.api, 'GET', '/Admin/Accounts/Me/SignInMethods', `Bearer ${again.body.Token}`);
    expect(methods.body).toMatchObject({ Passkeys: [], RecoveryCodesLeft: 0 });
    // The Activity page keeps the command's event, as it keeps the service's own.
    const activity = await call(
      restarted.api,
      'GET',
      '/Activity?action=sign-in-methods-reset',
      `Bearer ${again.body.Token}`,
    );
    expect(activity.status).toBe(200);
    expect(activity.body.Events).toMatchObject([{ Actor: 'npm run reset-sign-in', Outcome: 'success' }]);
  }, 120_000);
});
