import type { Insertable, Kysely } from 'kysely';
import type { HistoryEntity, HistoryEntry } from '../../../shared/contract/index.ts';
import { preparedInsert } from '../../db/prepared-query.ts';
import type { Database, HistoryTable } from '../../db/schema.ts';

/** Records a change; call it inside the transaction that makes the change, so both commit or neither. */
export async function recordHistory(trx: Kysely<Database>, entry: Insertable<HistoryTable>): Promise<void> {
  await insertEntry(trx, entry);
}

// Every change writes one: compiled once.
const insertEntry = preparedInsert('history', [
  'entity',
  'entity_id',
  'action',
  'from_state',
  'to_state',
  'comment',
  'changed_by',
  'changed_at',
]);

export async function listHistory(
  db: Kysely<Database>,
  entity: HistoryEntity,
  entityId: number,
): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('history')
    .selectAll()
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    Id: row.id,
    Entity: row.entity,
    EntityId: row.entity_id,
    Action: row.action,
    From: row.from_state,
    To: row.to_state,
    Comment: row.comment,
    ChangedBy: row.changed_by,
    ChangedTimestampUtc: row.changed_at,
  }));
}
