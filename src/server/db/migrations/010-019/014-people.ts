import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * People: a "This wasn't me" report can be marked handled (by whom, when), and a person's authorization requests are
 * found by their user name in any case without reading every request.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('token_issues').addColumn('handled_at', 'text').execute();
  await db.schema.alterTable('token_issues').addColumn('handled_by', 'text').execute();
  await db.schema
    .createIndex('authorization_requests_person')
    .on('authorization_requests')
    .expression(sql`lower(user_name)`)
    .execute();
  // A person's push users are found by user_key through the index migration 010 made (push_message_users_person).
}
