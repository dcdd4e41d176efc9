import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Dialect } from './dialect.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL's connection pool, for stores that share it (the sign-in throttle); absent on SQLite. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** Another process holds the embedded database. */
export class DatabaseInUseError extends Error {
  constructor(file: string) {
    super(
      `The database ${file} is in use by another process. The embedded database serves one service process: ` +
        'stop the other one, give this one its own DATA_DIR, or share a PostgreSQL database through DATABASE_URL.',
    );
    this.name = 'DatabaseInUseError';
  }
}

/** Connections each service process keeps to PostgreSQL (the bench's floors use the same number). */
export const POSTGRES_POOL_SIZE = 10;

export type DatabaseOptions = { databaseUrl: string } | { sqliteFile: string };

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POSTGRES_POOL_SIZE });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Kysely sends every query unnamed, so PostgreSQL parses and plans it on every call; the hot reads run as
    // named statements instead, prepared once per connection, which spares a parse and a plan on every hot read.
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
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }
  if (options.sqliteFile !== ':memory:') restrictToOwner(options.sqliteFile);
  const sqlite = new SQLite(options.sqliteFile);
  // One process owns the file (several processes share PostgreSQL instead): no lock round trips per statement,
  // and a second service pointed at the same folder is refused at start instead of contending for writes.
  sqlite.pragma('locking_mode = EXCLUSIVE');
  // A service that is still shutting down gets a few seconds to let go of the file.
  sqlite.pragma('busy_timeout = 5000');
  try {
    // The first access takes the exclusive lock.
    sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    sqlite.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(options.sqliteFile);
    throw error;
  }
  // FULL makes WAL fsync on every commit: an acknowledged write survives an OS crash, not just a process kill.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const reads = new ReadCache();
  const connection = withStatementCache(sqlite, reads);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  directReaders.set(db, {
    read: (sql, parameters) => {
      if (sqlite.inTransaction) return null;
      const cached = reads.get(sql, parameters);
      if (cached) return cached;
      return reads.put(sql, parameters, connection.prepare(sql).all(parameters as unknown[]));
    },
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * The database holds password hashes and session hashes: its folder and file are for the service's user alone.
 * SQLite creates the -wal and -shm files with the database file's permissions, so those follow.
 */
function restrictToOwner(sqliteFile: string): void {
  const folder = path.dirname(sqliteFile);
  // Only a folder the service creates is made private: an existing one (a shared /tmp, a folder an admin
  // prepared for a service account) keeps the mode it has, and the files below protect themselves.
  const created = fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (created !== undefined) fs.chmodSync(folder, 0o700);
  fs.closeSync(fs.openSync(sqliteFile, 'a', 0o600));
  for (const file of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) {
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }
}

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

const STATEMENT_CACHE_LIMIT = 200;

/**
 * Kysely prepares every query anew; the service runs a few dozen distinct SQL texts,
 * so preparing each once and reusing it removes a parse per query on the hot path.
 */
function withStatementCache(sqlite: SQLite.Database, reads: ReadCache): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      // Every statement runs right after it is prepared (Kysely's driver does both in one synchronous call), so a
      // statement that can write forgets the cached reads before it changes anything. `readonly`, not `reader`:
      // an UPDATE … RETURNING is a reader that writes.
      if (!statement.readonly) reads.clear();
      return statement;
    },
  };
}

/** Distinct hot reads remembered at most; beyond it the cache starts again (they are one-row reads by key). */
const READ_CACHE_LIMIT = 10_000;

/**
 * The answers of the hot one-row reads (`preparedQuery`) on the embedded database, until the next write. The
 * process holds the file exclusively (`locking_mode = EXCLUSIVE`) and every write goes through the statement cache
 * above, which empties this one: nothing can change a row behind it. A read costs a Map lookup instead of a trip
 * into SQLite, the largest single cost of an authenticated GET under load. Rows are frozen, since every
 * caller shares them.
 */
class ReadCache {
  private bySql = new Map<string, Map<unknown, readonly unknown[]>>();
  private size = 0;

  get(sql: string, parameters: readonly unknown[]): readonly unknown[] | undefined {
    return this.bySql.get(sql)?.get(keyOf(parameters));
  }

  put(sql: string, parameters: readonly unknown[], rows: unknown[]): readonly unknown[] {
    for (const row of rows) Object.freeze(row);
    const frozen = Object.freeze(rows);
    if (this.size >= READ_CACHE_LIMIT) this.clear();
    let answers = this.bySql.get(sql);
    if (!answers) {
      answers = new Map();
      this.bySql.set(sql, answers);
    }
    answers.set(keyOf(parameters), frozen);
    this.size += 1;
    return frozen;
  }

  clear(): void {
    if (this.size === 0) return;
    this.bySql = new Map();
    this.size = 0;
  }
}

/** One parameter (a read by key) is its own key; several are joined without ambiguity. */
function keyOf(parameters: readonly unknown[]): unknown {
  return parameters.length === 1 ? parameters[0] : JSON.stringify(parameters);
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  // Migration numbers were reserved per change and land in any order (005 before 003 and 004): a database that
  // already ran a later one still gets the earlier ones it lacks.
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider(handle.dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

export function dialectOf(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Empties tables and restarts their Ids at 1, so demo data gets the same Ids after every reset. */
export async function truncateTables(db: Kysely<Database>, tables: ReadonlyArray<keyof Database>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`truncate table ${sql.join(tables.map((table) => sql.table(table)))} restart identity`.execute(db);
    return;
  }
  for (const table of tables) await db.deleteFrom(table).execute();
  await sql`delete from sqlite_sequence where name in (${sql.join(tables)})`.execute(db);
}
