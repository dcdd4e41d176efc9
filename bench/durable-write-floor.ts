import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The durable-write floor: a bare better-sqlite3 loop doing the same fsync'd single-row update. */
export function durableWritesPerSecond(seconds: number): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-floor-'));
  try {
    const db = new SQLite(path.join(dir, 'floor.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('create table t (id integer primary key, status integer, modified_at text)');
    db.prepare('insert into t values (1, 1, ?)').run(new Date().toISOString());
    const update = db.prepare('update t set status = ?, modified_at = ? where id = 1');
    const end = performance.now() + seconds * 1000;
    let count = 0;
    while (performance.now() < end) {
      update.run((count % 3) + 1, new Date().toISOString());
      count++;
    }
    db.close();
    return count / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
