import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from './load.ts';
import { signIn, startProcess, startService } from './processes.ts';
import type { Figure } from './report.ts';

const ADMIN = { ADMIN_USERNAME: 'BENCH\\admin', ADMIN_PASSWORD: 'Bench#2026-admin' };

/**
 * `npm run bench -- smoke`, run by `npm test`: the bench's machinery (service and floor processes, sign-in, load
 * generator, report) measures one small figure. It checks that the bench still runs, never how fast anything is.
 */
export async function smokeBench(): Promise<Figure[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
  const floorServer = await startProcess('node', ['bench/floor-server.mjs'], {}, '/constant');
  try {
    const floor = await load({ url: `${floorServer.url}/constant`, seconds: 1, connections: 4 });
    await floorServer.stop();
    const service = await startService({ DATA_DIR: dataDir, DEMO: 'off', ...ADMIN, PASSWORD_HASH_COST: '1024' });
    try {
      const token = await signIn(service.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
      const get = await load({
        url: `${service.url}/api/Consumer/Version`,
        headers: { authorization: `Bearer ${token}` },
        seconds: 1,
        connections: 4,
      });
      if (get.errors > 0 || get.non2xx > 0) throw new Error(`${get.errors} errors, ${get.non2xx} non-2xx answers`);
      return [
        {
          target: 'smoke: GET version, 4 conns, 1 s',
          figure: get.requestsPerSecond,
          unit: 'req/s',
          floor: floor.requestsPerSecond,
          floorLabel: 'bare Fastify',
          ratio: get.requestsPerSecond / floor.requestsPerSecond,
          budget: 'reported (the bench runs)',
          pass: true,
        },
      ];
    } finally {
      await service.stop();
    }
  } finally {
    await floorServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
