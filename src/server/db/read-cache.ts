/** Distinct hot reads remembered at most; beyond it the cache starts again (they are one-row reads by key). */
const READ_CACHE_LIMIT = 10_000;

/**
 * The answers of the hot one-row reads (`preparedQuery`) on the embedded database, until the next write. The
 * process holds the file exclusively (`locking_mode = EXCLUSIVE`) and every write goes through the statement cache
 * (statement-cache.ts), which empties this one: nothing can change a row behind it. A read costs a Map lookup
 * instead of a trip into SQLite, the largest single cost of an authenticated GET under load. Rows are frozen,
 * since every caller shares them.
 */
export class ReadCache {
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
