import pg from 'pg';
import { startThrowawayCluster, type ThrowawayCluster } from '../scripts/pg-cluster.mjs';
import { POSTGRES_POOL_SIZE } from '../src/server/db/database.ts';
import { generatePostgresBenchData } from './generate-data.ts';
import { AUTHORIZATION_REQUESTS, LIST_ROWS_SQL, listFigures, PUSH_USERS } from './lists.ts';
import { type LoadResult, load } from './load.ts';
import { type RunningServer, signInFully, startService } from './processes.ts';
import type { Figure } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const ADMIN = { ADMIN_USERNAME: 'BENCH\\admin', ADMIN_PASSWORD: 'Bench#2026-admin' };

/** The service's one-row read by key, as a named (server-side prepared) statement. */
const SELECT_USER = {
  name: 'bench-select-push-user',
  text: 'select id, device_type, user_name, created_at, modified_at, status from push_message_users where id = $1',
};

/** `workers` concurrent loops of `run` on a pool of the service's size for `seconds`: completed runs per second. */
async function bareLoop(
  pool: pg.Pool,
  seconds: number,
  run: (pool: pg.Pool, n: number) => Promise<void>,
): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await run(pool, count);
        count++;
      }
    }),
  );
  return count / seconds;
}

/** The same transaction as a status change: the row update, a history row, commit. */
async function statusTransaction(pool: pg.Pool, n: number): Promise<void> {
  const client = await pool.connect();
  try {
    const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
    await client.query('begin');
    await client.query({
      name: 'bench-update-status',
      text: `update push_message_users set status = $1, modified_at = $2 where id = $3
        returning id, device_type, user_name, created_at, modified_at, status`,
      values: [(n % 3) + 1, now, 1],
    });
    await client.query({
      name: 'bench-insert-history',
      text: `insert into history (entity, entity_id, action, from_state, to_state, comment, changed_by, changed_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      values: ['PushMessageUser', 1, 'StatusChanged', 'Active', 'Inactive', null, 'BENCH\\floor', now],
    });
    await client.query('commit');
  } finally {
    client.release();
  }
}

const checkClean = (results: Record<string, LoadResult>) => {
  for (const [name, result] of Object.entries(results)) {
    if (result.errors > 0 || result.non2xx > 0) {
      throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    }
  }
};

/**
 * `npm run bench -- pg`: the service on a throwaway PostgreSQL cluster with synchronous_commit on,
 * the same generated rows, each figure against a floor taken in the same run.
 */
export async function postgresBench(): Promise<Figure[]> {
  const cluster: ThrowawayCluster = await startThrowawayCluster({
    settings: ['synchronous_commit=on', 'fsync=on'],
    log: (message) => console.log(`[bench:pg] ${message}`),
  });
  console.log(`[bench:pg] ${cluster.version} on 127.0.0.1:${cluster.port}`);
  const env = {
    DATABASE_URL: cluster.url,
    DEMO: 'off',
    ...ADMIN,
    LOGIN_RATE_PER_MINUTE: '1000000',
  };
  const pool = new pg.Pool({ connectionString: cluster.url, max: POSTGRES_POOL_SIZE });
  const running: RunningServer[] = [];
  try {
    // A first start migrates the database; the bench rows go in beside it.
    await (await startService(env)).stop();
    await generatePostgresBenchData(pool, PUSH_USERS, AUTHORIZATION_REQUESTS);
    await pool.query('analyze');

    const one = await startService(env);
    running.push(one);
    const token = await signInFully(one.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
    const auth = { authorization: `Bearer ${token}` };
    const getUrl = (service: RunningServer) => `${service.url}/api/Consumer/PushMessageUsers/1`;
    const getRun = (service: RunningServer, seconds = SECONDS, connections = CONNECTIONS) =>
      load({ url: getUrl(service), headers: auth, seconds, connections });
    const selectFloor = (seconds = SECONDS) =>
      bareLoop(pool, seconds, async (p) => {
        await p.query({ ...SELECT_USER, values: [1] });
      });
    // Warm-ups, then alternating runs: a change in the machine's load weighs on both alike.
    await selectFloor(1);
    await getRun(one, 1);
    const selectFloors = [await selectFloor()];
    const gets = [await getRun(one)];
    selectFloors.push(await selectFloor());
    gets.push(await getRun(one));
    const selectPerSecond = mean(selectFloors);
    const get = meanLoad(gets);

    const putOptions = {
      url: `${one.url}/api/Consumer/PushMessageUsers`,
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ Id: 1, Status: 2 }),
    } as const;
    await bareLoop(pool, 1, statusTransaction);
    await load({ ...putOptions, seconds: 1 });
    const writeFloors = [await bareLoop(pool, SECONDS, statusTransaction)];
    const puts = [await load({ ...putOptions, seconds: SECONDS })];
    writeFloors.push(await bareLoop(pool, SECONDS, statusTransaction));
    puts.push(await load({ ...putOptions, seconds: SECONDS }));
    const writePerSecond = mean(writeFloors);
    const put = meanLoad(puts);
    checkClean({ get, put });

    // Two processes on the one database, each at half the connections, while both race to decide the same
    // pending requests: each request must be decided exactly once.
    const two = await startService(env);
    running.push(two);
    await getRun(two, 1, CONNECTIONS / 2);
    // First the reads alone (the combined throughput), then the reads again while the decisions race.
    const [aloneA, aloneB] = await Promise.all([
      getRun(one, SECONDS, CONNECTIONS / 2),
      getRun(two, SECONDS, CONNECTIONS / 2),
    ]);
    const pending = (
      await pool.query<{ id: number; request_guid: string }>(
        "select id, request_guid from authorization_requests where status = 'Pending' order by id limit 400",
      )
    ).rows;
    const decide = (service: RunningServer, request: { id: number; request_guid: string }, authorized: boolean) =>
      fetch(`${service.url}/api/Consumer/Authentication/AuthorizeDevice`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          RequestId: request.id,
          RequestGuid: request.request_guid,
          Authorized: authorized,
          Comment: 'bench race',
        }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    const racing = (async () => {
      const outcomes: number[][] = [];
      for (let start = 0; start < pending.length; start += 20) {
        const batch = pending.slice(start, start + 20);
        outcomes.push(
          ...(await Promise.all(
            batch.map((request) => Promise.all([decide(one, request, true), decide(two, request, false)])),
          )),
        );
      }
      return outcomes;
    })();
    const [onA, onB, outcomes] = await Promise.all([
      getRun(one, SECONDS, CONNECTIONS / 2),
      getRun(two, SECONDS, CONNECTIONS / 2),
      racing,
    ]);
    checkClean({ 'process 1 of 2': aloneA, 'process 2 of 2': aloneB });
    checkClean({ 'process 1 of 2, racing': onA, 'process 2 of 2, racing': onB });
    const wrongOutcomes = outcomes.filter(
      (pair) => !((pair[0] === 200 && pair[1] === 409) || (pair[0] === 409 && pair[1] === 200)),
    );
    const ids = pending.map((request) => request.id);
    const decisions = await pool.query<{ entity_id: number; count: string }>(
      `select entity_id, count(*) as count from history
       where entity = 'AuthorizationRequest' and action = 'Decided' and entity_id = any($1) group by entity_id`,
      [ids],
    );
    const decidedOnce = decisions.rows.filter((row) => Number(row.count) === 1).length;
    const stillPending = await pool.query(
      "select count(*) from authorization_requests where id = any($1) and status = 'Pending'",
      [ids],
    );
    const exactlyOnce =
      wrongOutcomes.length === 0 &&
      decidedOnce === ids.length &&
      decisions.rows.length === ids.length &&
      Number(stillPending.rows[0].count) === 0;
    const combined = aloneA.requestsPerSecond + aloneB.requestsPerSecond;
    await two.stop();

    // The #8 list, read back the way the service serves it.
    const rows = (await pool.query(LIST_ROWS_SQL)).rows;
    const lists = await listFigures(rows, one, ' (PostgreSQL)', token);
    const [afterChange] = lists;

    return [
      {
        target: 'PG: GET push user (auth), 50 conns',
        figure: get.requestsPerSecond,
        unit: 'req/s',
        floor: selectPerSecond,
        floorLabel: `bare pg prepared select, pool ${POSTGRES_POOL_SIZE}`,
        ratio: get.requestsPerSecond / selectPerSecond,
        budget: 'ratio >= 0.5',
        pass: get.requestsPerSecond / selectPerSecond >= 0.5,
      },
      {
        target: 'PG: PUT push user status, 50 conns',
        figure: put.requestsPerSecond,
        unit: 'req/s',
        floor: writePerSecond,
        floorLabel: 'bare pg update + history insert + commit',
        ratio: put.requestsPerSecond / writePerSecond,
        budget: 'ratio >= 0.5',
        pass: put.requestsPerSecond / writePerSecond >= 0.5,
      },
      ...(afterChange ? [{ ...afterChange }] : []),
      {
        target: `PG: two processes, ${CONNECTIONS / 2} conns each, GET combined`,
        figure: combined,
        unit: 'req/s',
        floor: get.requestsPerSecond,
        floorLabel: 'one process, 50 conns',
        ratio: combined / get.requestsPerSecond,
        budget: 'reported; no errors',
        pass: true,
      },
      {
        target: `PG: two processes racing to decide ${ids.length} requests under load`,
        figure: decidedOnce,
        unit: `decided once (${wrongOutcomes.length} wrong answers)`,
        floor: ids.length,
        floorLabel: 'requests',
        ratio: null,
        budget: 'every one exactly once; GETs beside it without errors',
        pass: exactlyOnce,
      },
    ];
  } finally {
    for (const service of running) await service.stop();
    await pool.end();
    cluster.stop();
  }
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function meanLoad(runs: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: mean(runs.map((run) => run.requestsPerSecond)),
    p50Ms: mean(runs.map((run) => run.p50Ms)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}
