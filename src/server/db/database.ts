import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Dialect } from './dialect.ts';
import { readThroughCache, readThroughNamedStatements } from './direct-reader.ts';
import { migrationProvider } from './migrations/index.ts';
import { ReadCache } from './read-cache.ts';
import type { Database } from './schema.ts';
import { withStatementCache } from './statement-cache.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL's connection pool, for stores that share it (the sign-in throttle); absent on SQLite. */
  pool?: pg.Pool;
  /**
   * Writes a consistent copy of the embedded database to a new file while the service goes on writing (SQLite's online
   * backup, on the service's own connection, which holds the file exclusively); absent on PostgreSQL.
   */
  backup?: (file: string) => Promise<void>;
  close(): Promise<void>;
}

/** The embedded database's file in DATA_DIR. */
export const SQLITE_FILE_NAME = 'tachyon.sqlite';

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
    readThroughNamedStatements(db, pool);
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
  readThroughCache(db, sqlite, connection, reads);
  return {
    db,
    dialect: 'sqlite',
    backup: async (file) => {
      await sqlite.backup(file);
    },
    // Kysely closes the connection only if it ever used it; a handle opened and closed unused must let go of the file
    // too (closing is also what folds the write-ahead log into it).
    close: async () => {
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
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
