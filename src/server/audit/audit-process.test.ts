import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';

/** AUDIT_LOG as the built service reads it: a file that follows log rotation, or standard output. */
describe('AUDIT_LOG in the built service', () => {
  let folder: string;
  const services: ServiceProcess[] = [];
  beforeAll(() => {
    ensureServerBuilt();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-audit-'));
  }, 120_000);
  afterAll(async () => {
    for (const service of services) await stopService(service);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const start = async (auditLog: string) => {
    const service = await startService({
      DATA_DIR: path.join(folder, `data-${services.length}`),
      DEMO: 'on',
      PASSWORD_HASH_COST: '1024',
      AUDIT_LOG: auditLog,
    });
    services.push(service);
    return service;
  };
  const signIn = (api: string, password: string = ADMIN[1]) =>
    fetch(`${api}/Consumer/Authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'audit-process-test' },
      body: JSON.stringify({ UserName: ADMIN[0], Password: password }),
    });
  const actions = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{"@timestamp"'))
      .map((line) => JSON.parse(line) as { event: { action: string; outcome: string } });

  it('appends to the file, and after a rotation and SIGHUP writes to a new one', async () => {
    const file = path.join(folder, 'logs', 'audit.log');
    const service = await start(file);
    expect((await signIn(service.api)).status).toBe(200);
    await expect.poll(() => (fs.existsSync(file) ? actions(fs.readFileSync(file, 'utf8')) : []).length).toBe(1);
    fs.renameSync(file, `${file}.1`);
    service.child.kill('SIGHUP');
    expect((await signIn(service.api, 'wrong password here')).status).toBe(401);
    await expect.poll(() => (fs.existsSync(file) ? actions(fs.readFileSync(file, 'utf8')) : []).length).toBe(1);
    expect(actions(fs.readFileSync(`${file}.1`, 'utf8')).map((record) => record.event.outcome)).toEqual(['success']);
    expect(actions(fs.readFileSync(file, 'utf8')).map((record) => record.event.outcome)).toEqual(['failure']);
    // Still serving: SIGHUP reopened the file and did not end the process.
    expect(service.child.exitCode).toBeNull();
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 60_000);

  it('writes whole lines to standard output beside the service log', async () => {
    const service = await start('stdout');
    expect((await signIn(service.api)).status).toBe(200);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(actions(service.output()).map((record) => `${record.event.action} ${record.event.outcome}`)).toEqual([
      'sign-in success',
    ]);
  }, 60_000);
});
