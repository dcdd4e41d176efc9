import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * A device's notice may now be of a temporary code issued for its person (kind 'temporary-code'), which names that
 * code (`temporary_code_id`) and no enrolment: `authorization_request_id` becomes nullable. SQLite cannot drop a
 * NOT NULL, so there the table is rebuilt with its rows and index; nothing references it by a foreign key
 * (device_events.notice_id is a plain integer).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table device_notices alter column authorization_request_id drop not null`.execute(db);
    await db.schema
      .alterTable('device_notices')
      .addColumn('temporary_code_id', 'integer', (c) => c.references('temporary_codes.id').onDelete('cascade'))
      .execute();
    return;
  }
  const id = (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement();
  await db.schema
    .createTable('device_notices_rebuilt')
    .addColumn('id', 'integer', id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    // 'enrolled', 'approved' or 'temporary-code'.
    .addColumn('kind', 'text', (c) => c.notNull())
    // The new device's enrolment, for 'enrolled' and 'approved'.
    .addColumn('authorization_request_id', 'integer', (c) =>
      c.references('authorization_requests.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'text')
    // The code issued, for 'temporary-code'.
    .addColumn('temporary_code_id', 'integer', (c) => c.references('temporary_codes.id').onDelete('cascade'))
    .execute();
  await sql`insert into device_notices_rebuilt (id, device_id, kind, authorization_request_id, created_at, reported_at)
    select id, device_id, kind, authorization_request_id, created_at, reported_at from device_notices`.execute(db);
  await db.schema.dropTable('device_notices').execute();
  await db.schema.alterTable('device_notices_rebuilt').renameTo('device_notices').execute();
  await db.schema.createIndex('device_notices_device').on('device_notices').columns(['device_id', 'id']).execute();
}
