import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * Which accounts were created while demo mode was on. Anyone could do that with the published DEMO\admin password,
 * so at a start with demo mode off they are disabled until an account administrator enables them.
 *
 * A data folder from before this column cannot say when demo mode was on, but its history says who created each
 * account: one a DEMO\ account created was made in demo mode (demo accounts cannot sign in otherwise).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('principals')
    .addColumn('created_in_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const typed = db as unknown as Kysely<{
    principals: { id: number; source: string; created_in_demo: number };
    account_history: { principal_id: number | null; action: string; changed_by: string | null };
  }>;
  const created = await typed
    .selectFrom('account_history')
    .select(['principal_id', 'changed_by'])
    .where('action', '=', 'Created')
    .where('principal_id', 'is not', null)
    .execute();
  const ids = created
    .filter((row) => row.changed_by?.toLowerCase().startsWith('demo\\'))
    .map((row) => row.principal_id as number);
  if (ids.length === 0) return;
  await typed
    .updateTable('principals')
    .set({ created_in_demo: 1 })
    .where('id', 'in', ids)
    .where('source', '=', 'local')
    .execute();
}
