import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * A second-step ticket issued after single sign-on keeps the provider's ID token, so the session the second step opens
 * can still sign out at the provider (id_token_hint). Null for tickets from a password.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('sign_in_tickets').addColumn('oidc_id_token', 'text').execute();
}
