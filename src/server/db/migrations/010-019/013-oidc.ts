import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * Single sign-on (OpenID Connect): the sign-ins under way (from the redirect to the provider to its answer), the
 * one-time hand-overs that give the dashboard its session, and the ID token a session keeps for signing out at the
 * provider. Rows are short-lived: each is used once, or purged past its deadline.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('oidc_flows')
    // SHA-256 of the browser's flow cookie: the callback is accepted only in the browser that started it.
    .addColumn('flow_hash', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oidc_handovers')
    // SHA-256 of the one-time code the dashboard exchanges for its session.
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    // The same browser's flow cookie, hashed: a code seen elsewhere (history, a log) opens nothing.
    .addColumn('flow_hash', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'integer', (c) => c.notNull().references('principals.id').onDelete('cascade'))
    .addColumn('id_token', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('mfa_counted', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // The provider's ID token of a session opened by single sign-on: the id_token_hint of its sign-out.
  await db.schema.alterTable('sessions').addColumn('oidc_id_token', 'text').execute();
}
