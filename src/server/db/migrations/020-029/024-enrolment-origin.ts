import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * How each device came to be enrolled, for the approver: an enrolment link (who issued it, and when), or its person
 * signed in at /device (with a password or single sign-on); and the address and browser it came from. Devices
 * enrolled before this migration have none of it (null: "not recorded").
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // Who made the link: the person themselves (their own "Add a device"), or the helpdesk for them.
  await db.schema.alterTable('enrollment_codes').addColumn('issued_by', 'text').execute();
  // 'link', 'password' or 'single-sign-on'.
  await db.schema.alterTable('devices').addColumn('enrolled_via', 'text').execute();
  await db.schema.alterTable('devices').addColumn('link_issued_by', 'text').execute();
  await db.schema.alterTable('devices').addColumn('link_issued_at', 'text').execute();
  await db.schema.alterTable('devices').addColumn('client_address', 'text').execute();
  await db.schema.alterTable('devices').addColumn('user_agent', 'text').execute();
}
