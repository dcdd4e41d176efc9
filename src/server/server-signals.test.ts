import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from './test/service-process.ts';

/** The process's signals: a reload sent by habit (logrotate, `systemctl reload`) never stops the service. */
describe('SIGHUP to the service process', () => {
  let service: ServiceProcess | null = null;
  let dataDir = '';
  beforeAll(() => ensureServerBuilt(), 120_000);
  afterEach(async () => {
    await stopService(service);
    service = null;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is handled on plain HTTP without AUDIT_LOG: the service goes on, and the log says nothing needed reloading', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-sighup-'));
    service = await startService({ DATA_DIR: dataDir, PASSWORD_HASH_COST: '1024', LOG_LEVEL: 'info' });
    const current = service;
    service.child.kill('SIGHUP');
    await expect
      .poll(() => current.output(), { timeout: 10_000 })
      .toContain('SIGHUP: nothing needed reloading (no TLS certificate, no AUDIT_LOG file)');
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.api}/health/live`)).status).toBe(200);
  }, 60_000);
});
