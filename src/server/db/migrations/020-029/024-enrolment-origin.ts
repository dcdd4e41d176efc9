import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * How each device came to be enrolled, for the approver: an enrolment link (and when it was made; who made it is
 * migration 020's devices.added_by), or its person
 * signed in at /device (with a password or single sign-on); and the address and browser it came from. Devices
 * enrolled before this migration have none of it (null: "not recorded").
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // 'link', 'password' or 'single-sign-on'.
  await db.schema.alterTable('devices').addColumn('enrolled_via', 'text').execute();
  await db.schema.alterTable('devices').addColumn('link_issued_at', 'text').execute();
  await db.schema.alterTable('devices').addColumn('client_address', 'text').execute();
  await db.schema.alterTable('devices').addColumn('user_agent', 'text').execute();
}
