import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';

/** Bench data (never the demo data): many push users and authorization requests, written straight to SQLite. */
export function generateBenchData(sqliteFile: string, pushUsers: number, authorizationRequests: number): void {
  const db = new SQLite(sqliteFile);
  const stamp = (offsetMinutes: number) =>
    new Date(Date.UTC(2026, 0, 1) + offsetMinutes * 60_000).toISOString().replace('T', ' ').slice(0, 23);
  const devices = ['iOS', 'Android'];
  const insertUser = db.prepare(
    `insert into push_message_users (device_type, user_name, user_key, created_at, modified_at, status)
     values (?, ?, ?, ?, ?, ?)`,
  );
  const insertRequest = db.prepare(
    `insert into authorization_requests (user_name, user_email, request_guid, device_type, manufacturer, model,
       os_version, created_at, modified_at, status, comment, decided_by, decided_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < pushUsers; i++) {
      const userName = `BENCH\\user${String(i).padStart(6, '0')}`;
      insertUser.run(devices[i % 2], userName, userName.toLowerCase(), stamp(i), stamp(i + 5), (i % 3) + 1);
    }
    for (let i = 0; i < authorizationRequests; i++) {
      const userName = `BENCH\\requester${String(i).padStart(6, '0')}`;
      const decided = i % 4 !== 0;
      insertRequest.run(
        userName,
        `requester${i}@bench.example`,
        randomUUID(),
        devices[i % 2],
        i % 2 ? 'Samsung' : 'Apple',
        i % 2 ? 'Galaxy S24' : 'iPhone 16',
        i % 2 ? '14' : '18.1',
        stamp(i),
        stamp(i + 3),
        decided ? (i % 3 ? 'Authorized' : 'Rejected') : 'Pending',
        decided ? 'bench' : null,
        decided ? 'BENCH\\admin' : null,
        decided ? stamp(i + 3) : null,
      );
    }
    db.prepare('update list_revisions set revision = revision + 1').run();
  })();
  db.close();
}
