import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { FULL_BUILD_ENTRY, type ServiceProcess, startService } from '../../src/server/test/service-process.ts';

export { expect } from '@playwright/test';

/** The built service (`npm run build`) with demo data in a throwaway folder of its own. */
export interface E2eService {
  /** `http://127.0.0.1:port`, the base URL of the dashboard and of `/api`. */
  origin: string;
  /** Everything the service wrote so far (LOG_LEVEL warn: its warnings and errors). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts one service as the suite runs it: demo mode, and throttles and hash cost out of the way (the suite signs in
 * hundreds of times; neither is what it tests). `env` adds or overrides variables, e.g. a short idle setting.
 */
export async function startE2eService(env: Record<string, string> = {}, port = 0): Promise<E2eService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tachyon-e2e-'));
  let service: ServiceProcess;
  try {
    service = await startService(
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        WEB_ROOT: 'dist/web',
        DEMO: 'on',
        LOGIN_RATE_PER_MINUTE: '10000',
        LOGIN_FAILURES_PER_ADDRESS: '10000',
        LOGIN_SLOW_AFTER_FAILURES: '10000',
        DEMO_CREATIONS_PER_MINUTE: '10000',
        PASSWORD_HASH_COST: '1024',
        ...env,
      },
      60_000,
      { entry: FULL_BUILD_ENTRY },
    );
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    origin: service.api.replace(/\/api$/, ''),
    output: service.output,
    async stop() {
      service.child.kill('SIGTERM');
      await service.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Each worker has its own service and database, so workers run side by side without one's demo reset or settings
 * change reaching another's tests. E2E_PORT, when set, is the first worker's port (the next ones count up from it);
 * otherwise each service takes a free port.
 */
export const test = base.extend<{ serviceWarnings: undefined }, { service: E2eService }>({
  service: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use, workerInfo) => {
      const first = Number(process.env.E2E_PORT ?? 0);
      const service = await startE2eService({}, first ? first + workerInfo.parallelIndex : 0);
      await use(service);
      await service.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ service }, use) => use(service.origin),
  // A failure that only a loaded machine shows is read from what the service said meanwhile: printed with it.
  serviceWarnings: [
    async ({ service }, use, testInfo) => {
      const from = service.output().length;
      await use(undefined);
      if (testInfo.status === testInfo.expectedStatus) return;
      const said = service.output().slice(from).trim();
      console.log(said ? `The service said during this test:\n${said.slice(-6_000)}` : 'The service said nothing.');
    },
    { auto: true },
  ],
});
