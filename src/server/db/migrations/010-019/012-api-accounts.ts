import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * What an account is for: a person (the default, every account so far) or an API account that scripts and the
 * published SDK sign in with, whose secret the service generates.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('principals')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('person'))
    .execute();
}
