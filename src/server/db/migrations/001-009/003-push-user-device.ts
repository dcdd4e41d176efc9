import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * Push message users carry the device's Manufacturer, Model and OsVersion, as the published SDK's model has them
 * (SPEC §3): copied from the authorization request that registered the device, null for users registered otherwise.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const column of ['manufacturer', 'model', 'os_version']) {
    await db.schema.alterTable('push_message_users').addColumn(column, 'text').execute();
  }
}
