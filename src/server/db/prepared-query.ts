import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { directReaderOf } from './database.ts';
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
 * A read built and compiled once per database, then run with each call's arguments. Kysely otherwise rebuilds
 * and recompiles the query tree on every call, which is most of its cost on a one-row read by key. On the
 * embedded database it runs directly when it can (see `directReaderOf`).
 * `build` receives stand-ins for the arguments: use them only as values, never in JavaScript logic.
 */
export function preparedQuery<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const compiledFor = new WeakMap<Kysely<Database>, Compiled>();
  const compile = (db: Kysely<Database>): Compiled => {
    const slots = Array.from({ length: arity }, (_, index) => new Slot(index));
    const { sql, parameters } = build(db, ...(slots as unknown as Args)).compile();
    return {
      sql,
      parameters: parameters.map((parameter) => (parameter instanceof Slot ? parameter : { constant: parameter })),
    };
  };
  return async (db, ...args) => {
    let compiled = compiledFor.get(db);
    if (!compiled) {
      compiled = compile(db);
      compiledFor.set(db, compiled);
    }
    const values = compiled.parameters.map((parameter) =>
      parameter instanceof Slot ? args[parameter.index] : parameter.constant,
    );
    const direct = directReaderOf(db)?.read(compiled.sql, values);
    if (direct) return (await direct) as Row[];
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, values));
    return rows;
  };
}
