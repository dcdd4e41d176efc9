import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { startThrowawayCluster } from '../scripts/pg-cluster.mjs';
import { type RunningServer, signIn, startService } from './processes.ts';
import type { Figure } from './report.ts';

/** The Activity page's scale: a year of a busy organisation's security events (fewer to try the section quickly). */
export const ACTIVITY_EVENTS = Number(process.env.BENCH_ACTIVITY_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ACTIVITY_ROUNDS ?? 20);
const BUDGET_MS = 200;
const ADMIN = { ADMIN_USERNAME: 'BENCH\\admin', ADMIN_PASSWORD: 'Bench#2026-admin' };

/**
 * The rows, made by the database itself from a counter (one statement, the same on both dialects): a year of events,
 * one every ~31 seconds, from 2,000 people, 32 actions (a few rare: backups, resets), one in ten failed.
 */
const ACTIONS = [
  'sign-in',
  'sign-in',
  'sign-in',
  'sign-in',
  'token-accepted',
  'token-accepted',
  'token-accepted',
  'instruction-created',
  'instruction-created',
  'instruction-created',
  'second-factor-verified',
  'step-up',
  'sign-out',
  'session-ended',
  'device-enrolled',
  'authorization-decided',
  'push-user-status-changed',
  'token-refused',
  'second-factor-failed',
  'code-reported',
  'enrollment-link-issued',
  'account-changed',
  'account-created',
  'device-removed',
  'code-report-handled',
  'recovery-code-used',
  'sign-in-methods-reset',
  'api-account-created',
  'account-password-reset',
  'device-reported',
  'backup-taken',
  'backup-restored',
];
const START = Date.parse('2025-11-27T00:00:00Z');
const STEP_SECONDS = Math.floor((365 * 86_400) / ACTIVITY_EVENTS);

/** The insert as SQL over a counter `n` (0-based), written once for both dialects. */
function insertSql(counter: string, at: string): string {
  const action = `(case ${ACTIONS.map((name, index) => `when n % ${ACTIONS.length} = ${index} then '${name}'`).join(' ')} end)`;
  return `insert into activity_events
    (at, action, outcome, reason, actor, actor_key, person, person_key, target_type, target_id, source_ip, user_agent,
     details, search)
    select at, action, outcome, reason, actor, lower(actor), person, lower(person), target_type, target_id, source_ip,
      user_agent, null,
      lower(action || ' ' || actor || ' ' || person || ' ' || target_id || ' ' || source_ip || ' ' ||
        coalesce(reason, '') || ' ' || user_agent)
    from (select ${at} as at, ${action} as action,
      case when n % 10 = 3 then 'failure' else 'success' end as outcome,
      case when n % 10 = 3 then 'invalid-credentials' else null end as reason,
      'BENCH\\user' || (n % 2000) as actor,
      'BENCH\\user' || ((n * 7) % 2000) as person,
      'AuthorizationRequest' as target_type, cast(n % 50000 + 1 as text) as target_id,
      '10.' || (n % 200) || '.' || ((n / 200) % 250) || '.' || (n % 250) as source_ip,
      'Mozilla/5.0 (bench)' as user_agent
    from ${counter}) as generated`;
}

/** Each filter the page offers, first page, as the page asks for it (50 rows). */
function filters(): { name: string; query: string }[] {
  return [
    { name: 'no filter', query: '' },
    { name: 'actor', query: `actor=${encodeURIComponent('BENCH\\user17')}` },
    { name: 'person', query: `person=${encodeURIComponent('bench\\USER42')}` },
    { name: 'target', query: 'target=AuthorizationRequest:777' },
    { name: 'common action', query: 'action=sign-in' },
    { name: 'rare action', query: 'action=backup-restored' },
    { name: 'outcome', query: 'outcome=failure' },
    { name: 'last week', query: 'from=2026-11-20&to=2026-11-27' },
    { name: 'a day a year ago', query: 'from=2025-12-01&to=2025-12-01' },
    {
      name: 'person, action and outcome',
      query: `person=${encodeURIComponent('BENCH\\user42')}&action=sign-in&outcome=failure`,
    },
    { name: 'second page', query: 'before=2026-06-01%2000:00:00.000_500000' },
  ];
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? Number.NaN;

async function measure(service: RunningServer, label: string): Promise<Figure[]> {
  const token = await signIn(service.url, ADMIN.ADMIN_USERNAME, ADMIN.ADMIN_PASSWORD);
  const headers = { authorization: `Bearer ${token}` };
  const figures: Figure[] = [];
  const time = async (query: string) => {
    const started = performance.now();
    const response = await fetch(`${service.url}/api/Activity?${query}`, { headers });
    const body = (await response.json()) as { Events?: unknown[] };
    if (response.status !== 200) throw new Error(`activity ${query} answered ${response.status}`);
    return { ms: performance.now() - started, rows: body.Events?.length ?? 0 };
  };
  for (const { name, query } of filters()) {
    await time(query);
    const runs: number[] = [];
    let rows = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await time(query);
      runs.push(run.ms);
      rows = run.rows;
    }
    const figure = p95(runs);
    figures.push({
      target: `activity first page, ${name}, ${ACTIVITY_EVENTS.toLocaleString('en')} events (${label})`,
      figure,
      unit: `ms p95 (${rows} rows)`,
      floor: null,
      floorLabel: '',
      ratio: null,
      budget: `<= ${BUDGET_MS} ms`,
      pass: figure <= BUDGET_MS,
    });
  }
  // Free text: a common word fills a page from the newest rows; a word in no event is looked up in the text index
  // (FTS5 trigram, pg_trgm) instead of reading every row; text no index narrows (two characters; on PostgreSQL, no
  // word of three letters or digits, or words whose every trigram most events hold) reads a bounded share of the rows
  // per page. "sign in": every event of a sign-in holds "sign" (pg_trgm's index names their 156,000 rows), none
  // "sign in"; "bench mozilla": every event holds both words, none the two together. All under the filters' budget.
  for (const [name, q, budget] of [
    ['free text, common', '10.1', BUDGET_MS],
    ['free text, in no event', 'nowhere-at-all', BUDGET_MS],
    ['free text, two characters in no event', 'qz', BUDGET_MS],
    ['free text, common trigrams, in no event', '10_1', BUDGET_MS],
    ['free text, a common word, in no event', 'sign in', BUDGET_MS],
    ['free text, words of every event, in no event', 'bench mozilla', BUDGET_MS],
  ] as const) {
    const runs: number[] = [];
    for (let round = 0; round < Math.min(ROUNDS, 5); round++) runs.push((await time(`q=${encodeURIComponent(q)}`)).ms);
    const figure = p95(runs);
    figures.push({
      target: `activity first page, ${name}, ${ACTIVITY_EVENTS.toLocaleString('en')} events (${label})`,
      figure,
      unit: 'ms p95',
      floor: null,
      floorLabel: '',
      ratio: null,
      budget: `<= ${budget} ms`,
      pass: figure <= budget,
    });
  }
  return figures;
}

/** `count` events in an embedded database's file (no service may hold it): the dashboard's Activity page at scale. */
export function addActivityEvents(sqliteFile: string, count: number): void {
  const db = new SQLite(sqliteFile);
  db.exec(
    insertSql(
      `(with recursive c(n) as (select 0 union all select n + 1 from c where n < ${count - 1}) select n from c)`,
      `strftime('%Y-%m-%d %H:%M:%S.000', ${START / 1000} + n * ${STEP_SECONDS}, 'unixepoch')`,
    ),
  );
  // Indexed for free text as the service's indexer does once the writes pause (in one go here: nothing else writes).
  db.exec(`insert into activity_search (rowid, search)
    select id, search from activity_events where id > (select indexed_through from activity_search_state)`);
  db.exec('update activity_search_state set indexed_through = (select max(id) from activity_events)');
  db.close();
}

async function sqliteFigures(): Promise<Figure[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-activity-'));
  try {
    // A first start migrates; the events go in while it is stopped (it holds the file exclusively while it runs).
    await (await startService({ DATA_DIR: dataDir, DEMO: 'off', ...ADMIN })).stop();
    const file = path.join(dataDir, 'tachyon.sqlite');
    const started = performance.now();
    addActivityEvents(file, ACTIVITY_EVENTS);
    const db = new SQLite(file);
    db.exec('analyze');
    db.close();
    console.log(
      `[bench:activity] SQLite: ${ACTIVITY_EVENTS} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    // Retention long enough that the start-up's prune keeps the year.
    const service = await startService({
      DATA_DIR: dataDir,
      DEMO: 'off',
      SECOND_FACTOR: 'off',
      ACTIVITY_RETENTION_DAYS: '3650',
      ...ADMIN,
    });
    try {
      return await measure(service, 'SQLite');
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresFigures(): Promise<Figure[]> {
  const cluster = await startThrowawayCluster({ log: (message: string) => console.log(`[bench:activity] ${message}`) });
  const env = {
    DATABASE_URL: cluster.url,
    DEMO: 'off',
    SECOND_FACTOR: 'off',
    ACTIVITY_RETENTION_DAYS: '3650',
    ...ADMIN,
  };
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  try {
    await (await startService(env)).stop();
    const started = performance.now();
    await pool.query(
      insertSql(
        `(select generate_series(0, ${ACTIVITY_EVENTS - 1}) as n) as c`,
        `to_char(to_timestamp(${START / 1000} + n * ${STEP_SECONDS}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.000')`,
      ),
    );
    await pool.query('analyze activity_events');
    console.log(
      `[bench:activity] PostgreSQL: ${ACTIVITY_EVENTS} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const service = await startService(env);
    try {
      return await measure(service, 'PostgreSQL');
    } finally {
      await service.stop();
    }
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

/** `npm run bench -- activity`: the Activity page's first page of each filter over 1,000,000 events, both databases. */
export async function activityBench(): Promise<Figure[]> {
  return [...(await sqliteFigures()), ...(await postgresFigures())];
}
