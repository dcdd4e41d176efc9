import type { Kysely, QueryCreator } from 'kysely';
import { preparedQuery, preparedStatement } from './prepared-query.ts';
import type { Database } from './schema.ts';

/** A list whose revision counter is its ETag. */
export type ListName = 'authorization_requests' | 'push_message_users';

/** Bumps a list's revision (its ETag) inside the transaction that changed it. */
export async function bumpRevision(db: Kysely<Database>, name: ListName): Promise<void> {
  await bump(db, name);
}

// Run by every change of a list: compiled once.
const bump = preparedStatement(1, (db: Kysely<Database>, name: ListName) => bumpRevisionQuery(db, name));

/** The bump as a query, to run as part of a larger statement. */
export function bumpRevisionQuery(db: QueryCreator<Database>, name: ListName) {
  return db
    .updateTable('list_revisions')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('name', '=', name);
}

// Read on every list request, polls included.
const selectRevision = preparedQuery(1, (db: Kysely<Database>, name: ListName) =>
  db.selectFrom('list_revisions').select('revision').where('name', '=', name),
);

export async function readRevision(db: Kysely<Database>, name: ListName): Promise<number> {
  const [row] = await selectRevision(db, name);
  if (!row) throw new Error(`list revision ${name} is missing`);
  return row.revision;
}
