import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * SQLite's text index is kept behind the writes, in batches, instead of by a trigger in every event's own write: cutting
 * each event into trigrams on the one writer, inside the request's write, cost the status `PUT` a third of its
 * throughput. `activity_search_state.indexed_through` is the newest event id the index holds; search reads the events
 * above it (the few written since the last batch) by their own column. Pruning and a change of an indexed event still
 * keep the index by trigger: neither is on a request's path.
 *
 * PostgreSQL keeps pg_trgm's GIN index as it is: its pending list already defers the work of a write.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`drop trigger activity_search_insert`.execute(db);
  await sql`drop trigger activity_search_delete`.execute(db);
  await sql`drop trigger activity_search_update`.execute(db);
  await sql`create table activity_search_state (indexed_through integer not null)`.execute(db);
  // Every event so far is indexed: the triggers kept them.
  await sql`insert into activity_search_state (indexed_through)
    select coalesce(max(id), 0) from activity_events`.execute(db);
  const indexed = sql`old.id <= (select indexed_through from activity_search_state)`;
  await sql`create trigger activity_search_delete after delete on activity_events when ${indexed} begin
    insert into activity_search (activity_search, rowid, search) values ('delete', old.id, old.search);
  end`.execute(db);
  // Events are never changed; were an indexed one to be, its text is re-indexed.
  await sql`create trigger activity_search_update after update of search on activity_events when ${indexed} begin
    insert into activity_search (activity_search, rowid, search) values ('delete', old.id, old.search);
    insert into activity_search (rowid, search) values (new.id, new.search);
  end`.execute(db);
}
