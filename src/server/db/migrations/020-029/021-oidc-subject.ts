import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * A single sign-on account is bound to the provider's (issuer, sub), never to a name the provider lets its users
 * choose: a second person with the same preferred_username is refused. Accounts of before bind at their next sign-in.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('principals').addColumn('oidc_issuer', 'text').execute();
  await db.schema.alterTable('principals').addColumn('oidc_subject', 'text').execute();
}
