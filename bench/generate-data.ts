import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import type pg from 'pg';

const PUSH_USER_COLUMNS = ['device_type', 'user_name', 'user_key', 'created_at', 'modified_at', 'status'] as const;
const REQUEST_COLUMNS = [
  'user_name',
  'user_email',
  'request_guid',
  'device_type',
  'manufacturer',
  'model',
  'os_version',
  'created_at',
  'modified_at',
  'status',
  'comment',
  'decided_by',
  'decided_at',
] as const;
type Value = string | number | null;

/** Bench data (never the demo data): many push users and authorization requests, as rows of column values. */
function benchRows(pushUsers: number, authorizationRequests: number): { users: Value[][]; requests: Value[][] } {
  const stamp = (offsetMinutes: number) =>
    new Date(Date.UTC(2026, 0, 1) + offsetMinutes * 60_000).toISOString().replace('T', ' ').slice(0, 23);
  const devices = ['iOS', 'Android'];
  const users: Value[][] = [];
  for (let i = 0; i < pushUsers; i++) {
    const userName = `BENCH\\user${String(i).padStart(6, '0')}`;
    users.push([devices[i % 2] ?? 'iOS', userName, userName.toLowerCase(), stamp(i), stamp(i + 5), (i % 3) + 1]);
  }
  const requests: Value[][] = [];
  for (let i = 0; i < authorizationRequests; i++) {
    const userName = `BENCH\\requester${String(i).padStart(6, '0')}`;
    const decided = i % 4 !== 0;
    requests.push([
      userName,
      `requester${i}@bench.example`,
      randomUUID(),
      devices[i % 2] ?? 'iOS',
      i % 2 ? 'Samsung' : 'Apple',
      i % 2 ? 'Galaxy S24' : 'iPhone 16',
      i % 2 ? '14' : '18.1',
      stamp(i),
      stamp(i + 3),
      decided ? (i % 3 ? 'Authorized' : 'Rejected') : 'Pending',
      decided ? 'bench' : null,
      decided ? 'BENCH\\admin' : null,
      decided ? stamp(i + 3) : null,
    ]);
  }
  return { users, requests };
}

/** The bench data written straight to the embedded database (no service may hold the file). */
export function generateBenchData(sqliteFile: string, pushUsers: number, authorizationRequests: number): void {
  const db = new SQLite(sqliteFile);
  const { users, requests } = benchRows(pushUsers, authorizationRequests);
  const insert = (table: string, columns: readonly string[]) =>
    db.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
  const insertUser = insert('push_message_users', PUSH_USER_COLUMNS);
  const insertRequest = insert('authorization_requests', REQUEST_COLUMNS);
  db.transaction(() => {
    for (const row of users) insertUser.run(row);
    for (const row of requests) insertRequest.run(row);
    db.prepare('update list_revisions set revision = revision + 1').run();
  })();
  db.close();
}

/** The same bench data written to a PostgreSQL database the service has migrated. */
export async function generatePostgresBenchData(
  pool: pg.Pool,
  pushUsers: number,
  authorizationRequests: number,
): Promise<void> {
  const { users, requests } = benchRows(pushUsers, authorizationRequests);
  const client = await pool.connect();
  const insertAll = async (table: string, columns: readonly string[], rows: Value[][]) => {
    for (let start = 0; start < rows.length; start += 1000) {
      const batch = rows.slice(start, start + 1000);
      const placeholders = batch.map(
        (_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
      );
      await client.query(
        `insert into ${table} (${columns.join(', ')}) values ${placeholders.join(', ')}`,
        batch.flat(),
      );
    }
  };
  try {
    await client.query('begin');
    await insertAll('push_message_users', PUSH_USER_COLUMNS, users);
    await insertAll('authorization_requests', REQUEST_COLUMNS, requests);
    await client.query('update list_revisions set revision = revision + 1');
    await client.query('commit');
  } finally {
    client.release();
  }
}
