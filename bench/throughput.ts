import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { durableWritesPerSecond } from './durable-write-floor.ts';
import { load } from './load.ts';
import { signIn, startProcess, startService } from './processes.ts';
import type { Figure } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ADMIN = { ADMIN_USERNAME: 'BENCH\\admin', ADMIN_PASSWORD: 'Bench#2026-admin' };

/** Target 1: authenticated GET and PUT against their floors, login separately, and GET under a login storm. */
export async function throughputBench(): Promise<Figure[]> {
  const floorServer = await startProcess('node', ['bench/floor-server.mjs'], {}, '/constant');
  const floor = await load({ url: `${floorServer.url}/constant`, seconds: SECONDS });
  await floorServer.stop();

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-service-'));
  const service = await startService({ DATA_DIR: dataDir, DEMO: 'off', ...ADMIN, LOGIN_RATE_PER_MINUTE: '1000000' });
  try {
    const token = await signIn(service.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
    // One push user to read and write.
    const { generateBenchData } = await import('./generate-data.ts');
    generateBenchData(path.join(dataDir, 'tachyon.sqlite'), 10, 0);
    const auth = { authorization: `Bearer ${token}` };

    const get = await load({ url: `${service.url}/api/Consumer/PushMessageUsers/1`, headers: auth, seconds: SECONDS });
    const writeFloor = durableWritesPerSecond(SECONDS);
    const put = await load({
      url: `${service.url}/api/Consumer/PushMessageUsers`,
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ Id: 1, Status: 2 }),
      seconds: SECONDS,
    });
    const login = await load({
      url: `${service.url}/api/Consumer/Authentication`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: ADMIN.ADMIN_USERNAME, Password: ADMIN.ADMIN_PASSWORD }),
      connections: 10,
      seconds: SECONDS,
    });
    // A login storm beside the GET load: GETs must keep flowing.
    const [getDuringStorm] = await Promise.all([
      load({ url: `${service.url}/api/Consumer/PushMessageUsers/1`, headers: auth, seconds: SECONDS }),
      load({
        url: `${service.url}/api/Consumer/Authentication`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ UserName: ADMIN.ADMIN_USERNAME, Password: 'wrong password' }),
        connections: 50,
        seconds: SECONDS,
      }),
    ]);
    for (const [name, result] of Object.entries({ get, put, getDuringStorm })) {
      if (result.errors > 0 || result.non2xx > 0) {
        throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
      }
    }
    return [
      {
        target: 'GET push user (auth), 50 conns',
        figure: get.requestsPerSecond,
        unit: 'req/s',
        floor: floor.requestsPerSecond,
        floorLabel: 'bare Fastify',
        ratio: get.requestsPerSecond / floor.requestsPerSecond,
        budget: 'ratio >= 0.5',
        pass: get.requestsPerSecond / floor.requestsPerSecond >= 0.5,
      },
      {
        target: 'GET push user p99 latency',
        figure: get.p99Ms,
        unit: 'ms',
        floor: floor.p99Ms,
        floorLabel: 'bare Fastify p99',
        ratio: null,
        budget: '< 20 ms',
        pass: get.p99Ms < 20,
      },
      {
        target: 'PUT push user status, 50 conns',
        figure: put.requestsPerSecond,
        unit: 'req/s',
        floor: writeFloor,
        floorLabel: "bare fsync'd update loop",
        ratio: put.requestsPerSecond / writeFloor,
        budget: 'ratio >= 0.5',
        pass: put.requestsPerSecond / writeFloor >= 0.5,
      },
      {
        target: 'login (scrypt N=2^15), 10 conns',
        figure: login.requestsPerSecond,
        unit: 'req/s',
        floor: null,
        floorLabel: '',
        ratio: null,
        budget: 'reported',
        pass: true,
      },
      {
        target: 'GET during a 50-conn login storm',
        figure: getDuringStorm.requestsPerSecond,
        unit: 'req/s',
        floor: get.requestsPerSecond,
        floorLabel: 'GET alone',
        ratio: getDuringStorm.requestsPerSecond / get.requestsPerSecond,
        budget: 'ratio >= 0.25, p99 < 100 ms',
        pass: getDuringStorm.requestsPerSecond / get.requestsPerSecond >= 0.25 && getDuringStorm.p99Ms < 100,
      },
    ];
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
