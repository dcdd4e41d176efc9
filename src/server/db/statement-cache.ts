import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import type { ReadCache } from './read-cache.ts';

const STATEMENT_CACHE_LIMIT = 200;

/**
 * Kysely prepares every query anew; the service runs a few dozen distinct SQL texts,
 * so preparing each once and reusing it removes a parse per query on the hot path.
 */
export function withStatementCache(sqlite: SQLite.Database, reads: ReadCache): SqliteDatabase {
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
