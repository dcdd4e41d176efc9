import DataLoader from 'dataloader';
import { type Compilable, CompiledQuery, type Insertable, type Kysely } from 'kysely';
import { dialectOf } from './database.ts';
import { directReaderOf } from './direct-reader.ts';
import type { Database } from './schema.ts';

/** Stands in for an argument while the query is compiled; the compiled parameters hold it by reference. */
class Slot {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

interface Compiled {
  sql: string;
  /** Each compiled parameter: an argument's index, or a constant to pass as is. */
  parameters: ReadonlyArray<Slot | { constant: unknown }>;
}

/**
 * A query's builder compiled once per database, then bound to each call's arguments. The compiled form is kept by
 * the database's dialect adapter, which a transaction's handle shares with its database: a statement run inside
 * transactions is compiled once too, not once per transaction.
 */
function compiledOnce<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, args: Args) => CompiledQuery<Row> {
  const compiledFor = new WeakMap<object, Compiled>();
  const compile = (db: Kysely<Database>): Compiled => {
    const slots = Array.from({ length: arity }, (_, index) => new Slot(index));
    const { sql, parameters } = build(db, ...(slots as unknown as Args)).compile();
    return {
      sql,
      parameters: parameters.map((parameter) => (parameter instanceof Slot ? parameter : { constant: parameter })),
    };
  };
  return (db, args) => {
    const key = db.getExecutor().adapter;
    let compiled = compiledFor.get(key);
    if (!compiled) {
      compiled = compile(db);
      compiledFor.set(key, compiled);
    }
    const values = compiled.parameters.map((parameter) =>
      parameter instanceof Slot ? args[parameter.index] : parameter.constant,
    );
    return CompiledQuery.raw(compiled.sql, values) as CompiledQuery<Row>;
  };
}

/**
 * A read built and compiled once per database, then run with each call's arguments. Kysely otherwise rebuilds
 * and recompiles the query tree on every call, which is most of its cost on a one-row read by key. On the
 * embedded database it runs directly when it can (see `directReaderOf`).
 * `build` receives stand-ins for the arguments: use them only as values, never in JavaScript logic.
 */
export function preparedQuery<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const compiled = compiledOnce(arity, build);
  return async (db, ...args) => {
    const query = compiled(db, args);
    const direct = directReaderOf(db)?.read(query.sql, query.parameters);
    if (direct) return (await direct) as Row[];
    const { rows } = await db.executeQuery(query);
    return rows;
  };
}

/**
 * A statement of the write path (an update, an insert), built and compiled once, run in the caller's transaction
 * with each call's arguments; answers what it returns. What preparedQuery saves a read, this saves each of the
 * several statements a change makes. `build` receives stand-ins for the arguments: use them only as values.
 */
export function preparedStatement<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (trx: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const compiled = compiledOnce(arity, build);
  return async (trx, ...args) => (await trx.executeQuery(compiled(trx, args))).rows;
}

/**
 * An insert of one row into `table`, compiled once with every one of `columns` bound (null where the row has none).
 * A row naming a column the list lacks is refused rather than silently stored without it.
 */
export function preparedInsert<T extends keyof Database & string>(
  table: T,
  columns: readonly (keyof Insertable<Database[T]> & string)[],
): (trx: Kysely<Database>, row: Insertable<Database[T]>) => Promise<void> {
  const known = new Set<string>(columns);
  const insert = preparedStatement(columns.length, (db: Kysely<Database>, ...values: unknown[]) =>
    db
      .insertInto(table)
      .values(Object.fromEntries(columns.map((column, index) => [column, values[index]])) as Insertable<Database[T]>),
  );
  return async (trx, row) => {
    const fields = row as Record<string, unknown>;
    for (const column of Object.keys(fields)) {
      if (!known.has(column)) throw new Error(`${table}: ${column} is not among the prepared insert's columns`);
    }
    await insert(trx, ...columns.map((column) => fields[column] ?? null));
  };
}

/** The most keys one batched read asks PostgreSQL for. */
const MAX_BATCH = 200;

/**
 * A read of one row by key. On PostgreSQL, the reads of the same kind that requests ask for while the event loop
 * handles one round of incoming data go as one `= any($1)` query when that round is done: under load one round trip
 * and one index scan serve dozens of requests instead of one each, where one query per request left a GET by Id far
 * behind a bare `pg` loop. Each read still starts after its request arrived, so it sees every write committed before then. Rows are
 * not remembered between rounds: another process may change them. On the embedded database, `one` runs directly.
 * `many` receives a stand-in for the array of keys: use it only as a value.
 */
export function preparedLookup<Key extends number | string, Row>(
  one: (db: Kysely<Database>, key: Key) => Compilable<Row>,
  many: (db: Kysely<Database>, keys: readonly Key[]) => Compilable<Row>,
  keyOf: (row: Row) => Key,
): (db: Kysely<Database>, key: Key) => Promise<Row | undefined> {
  const readOne = preparedQuery(1, one);
  const readMany = preparedQuery(1, many);
  // null: a database that reads one key at a time (the embedded one, a transaction's handle).
  const loaders = new WeakMap<Kysely<Database>, DataLoader<Key, Row | undefined> | null>();
  const loaderOf = (db: Kysely<Database>) => {
    let loader = loaders.get(db);
    if (loader === undefined) {
      loader =
        dialectOf(db) === 'postgres' && directReaderOf(db)
          ? new DataLoader<Key, Row | undefined>(
              async (keys) => {
                const byKey = new Map((await readMany(db, keys)).map((row) => [keyOf(row), row]));
                return keys.map((key) => byKey.get(key));
              },
              // setImmediate: after every socket with data in this round has had its request routed.
              { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (callback) => setImmediate(callback) },
            )
          : null;
      loaders.set(db, loader);
    }
    return loader;
  };
  return async (db, key) => {
    const loader = loaderOf(db);
    return loader ? loader.load(key) : (await readOne(db, key))[0];
  };
}
