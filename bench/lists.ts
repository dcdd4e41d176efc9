import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { addActivityEvents } from './activity.ts';
import { generateBenchData } from './generate-data.ts';
import { type RunningServer, signIn, startService } from './processes.ts';
import type { Figure } from './report.ts';

export const PUSH_USERS = 50_000;
export const AUTHORIZATION_REQUESTS = 20_000;
/** Security events for the Activity page at scale (its own section measures 1,000,000 at the service). */
export const ACTIVITY_SCALE_EVENTS = 50_000;
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 15);
const ADMIN = { ADMIN_USERNAME: 'BENCH\\admin', ADMIN_PASSWORD: 'Bench#2026-admin' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** A data folder with the bench data set, migrated by one start of the service. */
export async function prepareScaleData(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-scale-'));
  const first = await startService({ DATA_DIR: dataDir, DEMO: 'off', ...ADMIN });
  await first.stop();
  generateBenchData(path.join(dataDir, 'tachyon.sqlite'), PUSH_USERS, AUTHORIZATION_REQUESTS);
  addActivityEvents(path.join(dataDir, 'tachyon.sqlite'), ACTIVITY_SCALE_EVENTS);
  return dataDir;
}

/**
 * What is measured is the lists, not the sign-in: the admin's password opens a full session, as in demo mode. With a
 * second factor required (the default with demo mode off) the dashboard sends a password-only admin to add one first.
 */
export function startScaleService(dataDir: string): Promise<RunningServer> {
  return startService({ DATA_DIR: dataDir, DEMO: 'off', SECOND_FACTOR: 'off', ...ADMIN });
}

/** Target 2: the full #8 list at 50,000 rows against JSON.stringify of the same rows, memory, and the ETag poll. */
export async function listBench(dataDir: string): Promise<Figure[]> {
  // Read before the service starts: it holds the file exclusively while it runs.
  const reader = new SQLite(path.join(dataDir, 'tachyon.sqlite'), { readonly: true });
  const rows = reader.prepare(LIST_ROWS_SQL).all();
  reader.close();
  return listFigures(rows, await startScaleService(dataDir), '');
}

/** The list rows as the API serves them, straight from the database. */
export const LIST_ROWS_SQL = `select id as "Id", device_type as "DeviceType", user_name as "UserName",
  created_at as "CreatedTimeStampUtc", modified_at as "ModifiedTimestampUtc", status as "Status"
  from push_message_users order by id`;

/**
 * The #8 list figures of a running service (stopped at the end) against JSON.stringify of `rows`, read with `session`
 * (a full session) or, where the service asks no second factor, a password's.
 */
export async function listFigures(
  rows: unknown[],
  service: RunningServer,
  label: string,
  session?: string,
): Promise<Figure[]> {
  const stringifyMs = median(
    await Promise.all(Array.from({ length: ROUNDS }, () => timed(async () => JSON.stringify(rows)))),
  );
  try {
    const token = session ?? (await signIn(service.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD));
    const auth = { authorization: `Bearer ${token}` };
    const listUrl = `${service.url}/api/Consumer/PushMessageUsers`;
    const fetchList = async (headers: Record<string, string> = {}) => {
      const response = await fetch(listUrl, { headers: { ...auth, ...headers } });
      const body = await response.arrayBuffer();
      return { response, bytes: body.byteLength };
    };
    const touch = (round: number) =>
      fetch(listUrl, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ Id: (round % 100) + 1, Status: (round % 3) + 1 }),
      });

    const rssBefore = service.rssMb();
    // Cold: a change before every fetch, so each one queries and serializes all 50,000 rows.
    const cold: number[] = [];
    let listBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await touch(round);
      cold.push(
        await timed(async () => {
          const { response, bytes } = await fetchList();
          if (response.status !== 200) throw new Error(`list answered ${response.status}`);
          listBytes = bytes;
        }),
      );
    }
    const rssAfterCold = service.rssMb();
    const warm: number[] = [];
    let etag = '';
    for (let round = 0; round < ROUNDS; round++) {
      warm.push(
        await timed(async () => {
          const { response } = await fetchList();
          etag = response.headers.get('etag') ?? '';
        }),
      );
    }
    const notModified: number[] = [];
    for (let round = 0; round < ROUNDS * 4; round++) {
      notModified.push(
        await timed(async () => {
          const { response } = await fetchList({ 'if-none-match': etag });
          if (response.status !== 304) throw new Error(`conditional poll answered ${response.status}`);
        }),
      );
    }
    const rssEnd = service.rssMb();
    const coldMs = median(cold);
    const warmMs = median(warm);
    const pollMs = median(notModified);
    return [
      {
        target: `#8 full list, ${PUSH_USERS} rows, after a change${label}`,
        figure: coldMs,
        unit: `ms (${(listBytes / 1e6).toFixed(1)} MB)`,
        floor: stringifyMs,
        floorLabel: 'JSON.stringify of the rows',
        ratio: coldMs / stringifyMs,
        budget: 'ratio <= 3',
        pass: coldMs / stringifyMs <= 3,
      },
      {
        target: `#8 full list, ${PUSH_USERS} rows, unchanged${label}`,
        figure: warmMs,
        unit: 'ms',
        floor: stringifyMs,
        floorLabel: 'JSON.stringify of the rows',
        ratio: warmMs / stringifyMs,
        budget: 'ratio <= 3',
        pass: warmMs / stringifyMs <= 3,
      },
      {
        target: `#8 poll with If-None-Match (304)${label}`,
        figure: pollMs,
        unit: 'ms',
        floor: coldMs,
        floorLabel: 'full fetch after a change',
        ratio: pollMs / coldMs,
        budget: 'ratio <= 0.05',
        pass: pollMs / coldMs <= 0.05,
      },
      {
        target: `service memory after list rounds${label}`,
        figure: rssEnd,
        unit: 'MB RSS',
        floor: rssBefore,
        floorLabel: 'RSS before',
        ratio: rssEnd / rssAfterCold,
        budget: '<= 400 MB, no growth past cold rounds (ratio <= 1.2)',
        pass: rssEnd <= 400 && rssEnd / rssAfterCold <= 1.2,
      },
    ];
  } finally {
    await service.stop();
  }
}

/** Target 5: start-up with an existing data folder. */
export async function startupBench(dataDir: string): Promise<Figure[]> {
  const service = await startScaleService(dataDir);
  await service.stop();
  return [
    {
      target: `start-up, existing data (${PUSH_USERS} users)`,
      figure: service.readyMs,
      unit: 'ms',
      floor: null,
      floorLabel: '',
      ratio: null,
      budget: '<= 5000 ms',
      pass: service.readyMs <= 5000,
    },
  ];
}

export function removeScaleData(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}
