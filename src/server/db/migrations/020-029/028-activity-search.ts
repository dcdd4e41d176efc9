import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * An index of every three characters of the Activity page's free-text column (`search`), so that text found in few
 * events, or in none, is looked up instead of read through a million rows. Trigrams, not words: a person types part
 * of an address (`10.2.`), of a user name (`jane`) or of a browser (`firefox/1`), and a word index (tsvector, FTS5's
 * default tokenizer) finds only whole words.
 *
 * SQLite: an FTS5 table with the trigram tokenizer over the column (external content: the text is not kept twice;
 * `detail=none`: which rows hold a trigram, not where, a fraction of the size), kept by triggers, so every writer
 * and the pruning keep it without knowing of it. PostgreSQL: pg_trgm's GIN index on the column, which `LIKE` uses
 * as it is. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension (the database's owner may create it);
 * where it is not installed, search still answers, by reading the table as before.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const available = await sql<{ name: string }>`
      select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
    if (available.rows.length === 0) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index activity_events_search on activity_events using gin (search gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table activity_search using fts5(
    search, content = 'activity_events', content_rowid = 'id', tokenize = 'trigram', detail = none)`.execute(db);
  await sql`create trigger activity_search_insert after insert on activity_events begin
    insert into activity_search (rowid, search) values (new.id, new.search);
  end`.execute(db);
  await sql`create trigger activity_search_delete after delete on activity_events begin
    insert into activity_search (activity_search, rowid, search) values ('delete', old.id, old.search);
  end`.execute(db);
  // Events are never changed; were one to be, its text is re-indexed.
  await sql`create trigger activity_search_update after update of search on activity_events begin
    insert into activity_search (activity_search, rowid, search) values ('delete', old.id, old.search);
    insert into activity_search (rowid, search) values (new.id, new.search);
  end`.execute(db);
  await sql`insert into activity_search (activity_search) values ('rebuild')`.execute(db);
}
