import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * Where each proof comes from. A session records how it was proved (its first factor, and the kind of its last second
 * factor); each factor records who added it (a passkey, recovery codes, a device and the link that enrolled it); a
 * device's approval (by whom, when) is its authorization request's decision, so a phone a session planted and
 * approved itself is no proof for it. A ticket (and a
 * single sign-on's handover) keeps the permissions a directory or provider sign-in brings, written only when the
 * session opens.
 * Older rows stay null: a session of before counts its second factor as before, a factor of before as added by its
 * person.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('first_factor', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('second_factor', 'text').execute();
  await db.schema.alterTable('passkeys').addColumn('added_by', 'text').execute();
  await db.schema.alterTable('recovery_codes').addColumn('added_by', 'text').execute();
  await db.schema.alterTable('enrollment_codes').addColumn('created_by', 'text').execute();
  await db.schema.alterTable('devices').addColumn('added_by', 'text').execute();
  await db.schema.alterTable('sign_in_tickets').addColumn('pending_grants', 'text').execute();
  await db.schema.alterTable('oidc_handovers').addColumn('pending_grants', 'text').execute();
}
