import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * How many tokens each instruction has been issued (reissues are capped), and, on PostgreSQL, the sign-in throttle's
 * counts, shared by every service process on the database (in rate-limiter-flexible's PostgreSQL store layout).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('instructions')
    .addColumn('tokens_issued', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  if (dialect === 'postgres') {
    await db.schema
      .createTable('login_throttle')
      .addColumn('key', sql`varchar(255)`, (c) => c.primaryKey())
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expire', 'bigint')
      .execute();
  }
}
