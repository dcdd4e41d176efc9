import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * The addresses each account signed in from recently (domain/authentication/throttle/known-clients.ts): the sign-in throttle spares them
 * the user name's pace. The index serves the pruning of lapsed ones.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('known_clients')
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('last_success_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_clients_pk', ['user_key', 'client_key'])
    .execute();
  await db.schema.createIndex('known_clients_last_success').on('known_clients').column('last_success_at').execute();
}
