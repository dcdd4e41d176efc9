import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { Kysely, SqliteDatabase } from 'kysely';
import type pg from 'pg';
import type { ReadCache } from './read-cache.ts';
import type { Database } from './schema.ts';

/**
 * Runs a hot read past Kysely: on the embedded database synchronously, outside its connection queue (null while
 * a transaction is open); on PostgreSQL as a named prepared statement on the pool.
 */
export interface DirectReader {
  /** Rows (SQLite, synchronously), a promise of rows (PostgreSQL), or null: go through Kysely. */
  read(sql: string, parameters: readonly unknown[]): readonly unknown[] | Promise<unknown[]> | null;
}

const directReaders = new WeakMap<Kysely<Database>, DirectReader>();

/**
 * The direct reader of a database (none for a transaction's handle, whose reads must use its connection). SQLite has one
 * connection: while no transaction is open on it, nothing uncommitted can be seen, and a synchronous read
 * finishes before any other code runs, so it needs no place in Kysely's queue. During a transaction it must
 * wait its turn there, which is what a null answer says.
 */
export function directReaderOf(db: Kysely<Database>): DirectReader | undefined {
  return directReaders.get(db);
}

/**
 * PostgreSQL: Kysely sends every query unnamed, so PostgreSQL parses and plans it on every call; the hot reads run
 * as named statements instead, prepared once per connection, which spares a parse and a plan on every hot read.
 */
export function readThroughNamedStatements(db: Kysely<Database>, pool: pg.Pool): void {
  const names = new Map<string, string>();
  directReaders.set(db, {
    read: async (sql, parameters) => {
      let name = names.get(sql);
      if (!name) {
        name = `tachyon_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
        names.set(sql, name);
      }
      return (await pool.query({ name, text: sql, values: [...parameters] })).rows;
    },
  });
}

/** The embedded database: hot reads answered from the read cache, or run on the cached statements and remembered. */
export function readThroughCache(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  connection: SqliteDatabase,
  reads: ReadCache,
): void {
  directReaders.set(db, {
    read: (sql, parameters) => {
      if (sqlite.inTransaction) return null;
      const cached = reads.get(sql, parameters);
      if (cached) return cached;
      return reads.put(sql, parameters, connection.prepare(sql).all(parameters as unknown[]));
    },
  });
}
