import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import {
  ACTIVITY_EXPORT_MAX,
  ACTIVITY_PAGE_DEFAULT,
  ACTIVITY_READERS,
  type ActivityEvent,
  type ActivityExportQuery,
  type ActivityPage,
  type ActivityQuery,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import { csvLine } from '../../../shared/csv.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../../audit/audit-event.ts';
import { dialectOf } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { userKeyOf } from '../identity/principals.ts';

/** The actions whose events only a caller who also holds Read on Accounts reads (the contract's ACTIVITY_READERS). */
export const ACCOUNT_ACTIONS: readonly AuditAction[] = AUDIT_ACTIONS.filter(
  (action) => ACTIVITY_READERS[action] === 'accounts',
);

type Row = {
  id: number;
  at: string;
  action: string;
  outcome: 'success' | 'failure';
  reason: string | null;
  actor: string | null;
  person: string | null;
  target_type: string | null;
  target_id: string | null;
  source_ip: string | null;
  user_agent: string | null;
  details: string | null;
};

function toEvent(row: Row): ActivityEvent {
  return {
    Id: row.id,
    TimestampUtc: row.at,
    Action: row.action,
    Outcome: row.outcome,
    Reason: row.reason,
    Actor: row.actor,
    Person: row.person,
    TargetType: row.target_type,
    TargetId: row.target_id,
    SourceIp: row.source_ip,
    UserAgent: row.user_agent,
    Details: row.details ? (JSON.parse(row.details) as ActivityEvent['Details']) : {},
  };
}

const TIME_BOUND = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?Z?)?$/;

/** A time bound as stored: a day alone means its start for `from` and the next day's start for `to`. */
function bound(value: string, name: 'from' | 'to'): string {
  const match = TIME_BOUND.exec(value);
  const [, day = '', time, seconds = ':00'] = match ?? [];
  const parsed = new Date(`${day}T${time ?? '00:00'}${seconds}Z`);
  // A day that does not exist (2026-02-30) rolls over in Date: refused rather than read as another day.
  if (!match || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    throw new ProblemError(400, 'validation', 'Invalid time', `${name} is not a date or time that exists: ${value}.`, {
      extensions: { errors: [{ path: name, message: `${name} is not a date or time that exists` }] },
    });
  }
  if (time === undefined && name === 'to') parsed.setUTCDate(parsed.getUTCDate() + 1);
  return formatTimestamp(parsed);
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Free text is first looked for in the newest rows of the filter, read in order: a word most events hold fills a
 * page at once. Past them, the text index names the rows that can hold it (a word few events hold, or none), instead
 * of reading on through every older row.
 */
const TEXT_WINDOW = 10_000;
/**
 * Text no index narrows (one or two characters; on PostgreSQL, text whose trigrams nearly every event holds) is read
 * through at most this many rows of the filter per page, newest first: a page ends there, short or empty, with `Next`
 * to read on from, rather than reading a million rows.
 */
export const TEXT_SCAN_ROWS = 20_000;

/** Trigrams of the text looked up in SQLite's text index: the rarest few, since each read costs its rows there. */
const TRIGRAMS_ASKED = 3;
/** Newest rows in which a trigram's share of the events is measured. */
const TRIGRAM_SAMPLE = 2_000;

/** The text's distinct trigrams, by code point (`%` and `_` are characters like any other here, as in the search). */
export function trigramsOf(text: string): string[] {
  const chars = [...text.toLowerCase()];
  const grams = new Set<string>();
  for (let at = 0; at + 3 <= chars.length; at++) grams.add(chars.slice(at, at + 3).join(''));
  return [...grams];
}

/** The trigrams inside the text's words of three letters or digits and more: those pg_trgm's index is asked for. */
function wordTrigramsOf(text: string): string[] {
  return [...new Set((text.match(/[\p{L}\p{N}]{3,}/gu) ?? []).flatMap(trigramsOf))];
}

/** For each group of trigrams, how many of the sample's rows hold all of them; and how many rows the sample holds. */
async function holding(
  db: Kysely<Database>,
  sample: SelectQueryBuilder<Database, 'activity_events', { search: string }>,
  groups: string[][],
): Promise<{ counts: number[]; rows: number }> {
  const within = (gram: string) =>
    dialectOf(db) === 'postgres' ? sql<boolean>`strpos(search, ${gram}) > 0` : sql<boolean>`instr(search, ${gram}) > 0`;
  const row = (await db
    .selectFrom(sample.as('sample'))
    .select([
      sql<number>`count(*)`.as('rows'),
      ...groups.map((grams, index) =>
        sql<number>`sum(case when ${sql.join(grams.map(within), sql` and `)} then 1 else 0 end)`.as(`g${index}`),
      ),
    ])
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  return { counts: groups.map((_, index) => Number(row[`g${index}`] ?? 0)), rows: Number(row.rows) };
}

/**
 * Whether PostgreSQL's text index narrows the text's rows. pg_trgm cuts text into words of letters and digits, and
 * names every row that holds all the trigrams of the text's words, each then read from the table to check the text
 * itself: text without a word of three (`10_1`) names nearly every row, and so does a word whose trigrams are each
 * common, however rare the word (`station` where events say `status` and `authorization`). Those rows are counted
 * among the newest events of the table (the index holds the whole table, whatever the filter) and scaled to its span
 * of ids: where they come to more than a bounded read reads, the rows are read in time order instead. Counted by the
 * words' inner trigrams only (pg_trgm also knows a word's edges), so a phrase may be read in order where the index
 * would have narrowed it: the same events are found, a page at a time.
 */
async function postgresIndexNarrows(db: Kysely<Database>, text: string): Promise<boolean> {
  const grams = wordTrigramsOf(text);
  if (grams.length === 0) return false;
  const { span } = await db
    .selectFrom('activity_events')
    .select(sql<number | null>`max(id) - min(id) + 1`.as('span'))
    .executeTakeFirstOrThrow();
  const events = Number(span ?? 0);
  if (events <= TEXT_SCAN_ROWS) return true;
  const sample = db
    .selectFrom('activity_events')
    .select('search')
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(TRIGRAM_SAMPLE);
  const { counts, rows } = await holding(db, sample, [grams]);
  return ((counts[0] ?? 0) / Math.max(rows, 1)) * events <= TEXT_SCAN_ROWS;
}

/**
 * The rows that can hold the text, as a condition on the event's id, or null where the index cannot narrow them (text
 * of fewer than three characters; on PostgreSQL, see `postgresIndexNarrows`). PostgreSQL: pg_trgm's index serves the
 * column's own `LIKE` (once the order is not the time index's, below), skipping through common trigrams by the rare
 * ones. SQLite's FTS5 reads every trigram's whole list of rows, so it is asked for the rarest three, as counted in the
 * newest rows of the filter: a superset of the exact match, which the event's own column then checks. SQLite's index
 * holds the events up to its watermark (it is kept in batches behind the writes); the few above it are candidates too.
 */
async function textCandidates(
  db: Kysely<Database>,
  newest: (rows: number) => SelectQueryBuilder<Database, 'activity_events', object>,
  text: string,
): Promise<RawBuilder<boolean> | null> {
  const grams = trigramsOf(text);
  if (grams.length === 0) return null;
  if (dialectOf(db) === 'postgres') return (await postgresIndexNarrows(db, text)) ? sql<boolean>`true` : null;
  let asked = grams;
  if (grams.length > TRIGRAMS_ASKED) {
    const { counts } = await holding(
      db,
      newest(TRIGRAM_SAMPLE).select('search'),
      grams.map((gram) => [gram]),
    );
    asked = grams
      .map((gram, index) => ({ gram, seen: counts[index] ?? 0 }))
      .sort((a, b) => a.seen - b.seen)
      .slice(0, TRIGRAMS_ASKED)
      .map(({ gram }) => gram);
  }
  const match = asked.map((gram) => `"${gram.replaceAll('"', '""')}"`).join(' AND ');
  // The index is kept behind the writes: the events above its watermark are candidates all, read by their column.
  return sql<boolean>`(id > (select indexed_through from activity_search_state)
    or id in (select rowid from activity_search where activity_search match ${match}))`;
}

const COLUMNS = [
  'id',
  'at',
  'action',
  'outcome',
  'reason',
  'actor',
  'person',
  'target_type',
  'target_id',
  'source_ip',
  'user_agent',
  'details',
] as const;

/** The events a filter names, withholding account events from a caller without Read on Accounts; free text aside. */
function filteredEvents(
  db: Kysely<Database>,
  query: ActivityExportQuery & { before?: string | undefined },
  options: { accountEvents: boolean },
) {
  let select = db.selectFrom('activity_events');
  if (query.actor) select = select.where('actor_key', '=', userKeyOf(query.actor));
  if (query.person) select = select.where('person_key', '=', userKeyOf(query.person));
  if (query.target) {
    const [type, id] = query.target.split(':') as [string, string];
    select = select.where('target_type', '=', type).where('target_id', '=', id);
  }
  if (query.action) {
    const actions = [...new Set(query.action.split(','))];
    select = select.where('action', 'in', actions);
  }
  if (!options.accountEvents) select = select.where('action', 'not in', ACCOUNT_ACTIONS);
  if (query.outcome) select = select.where('outcome', '=', query.outcome);
  if (query.from) select = select.where('at', '>=', bound(query.from, 'from'));
  if (query.to) select = select.where('at', '<', bound(query.to, 'to'));
  if (query.before) {
    const cut = query.before.lastIndexOf('_');
    const at = query.before.slice(0, cut);
    const id = Number(query.before.slice(cut + 1));
    // A row value: both databases walk the (…, at, id) index from the cursor, where an OR of two ranges reads on.
    select = select.where(sql<boolean>`(at, id) < (${at}, ${id})`);
  }
  return select;
}

/**
 * One page of events, newest first. Every filter is an equality on an indexed column (or a range on the time), and
 * the order (at, id) descending continues the index, so the first page reads about `limit` rows whatever the table
 * holds. Free text reads at most `TEXT_WINDOW` rows in that order, then asks the text index; text the index cannot
 * narrow reads at most `TEXT_SCAN_ROWS` rows in all, and the page says where to read on (`Next`).
 */
export async function listActivity(
  db: Kysely<Database>,
  query: ActivityQuery,
  options: { accountEvents: boolean },
): Promise<ActivityPage> {
  const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
  const filtered = () => filteredEvents(db, query, options);
  const newest = (rows: number) => filtered().orderBy('at', 'desc').orderBy('id', 'desc').limit(rows);
  const newestFirst = (rows: number) => newest(rows).select(COLUMNS);
  const page = (rows: Row[]): ActivityPage => {
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      Events: shown.map(toEvent),
      Next: rows.length > limit && last ? `${last.at}_${last.id}` : null,
    };
  };
  if (!query.q) return page((await newestFirst(limit + 1).execute()) as Row[]);

  // One lower-cased column, matched with LIKE (its pattern lower-cased too, so both dialects match any case). Read in
  // time order, PostgreSQL is kept from its text index by an expression it does not index: the index could name a
  // million rows' worth of common trigrams, which costs seconds, where reading rows in time order stops at a page.
  const pattern = likePattern(query.q);
  const matches = sql<boolean>`search like ${pattern} escape '\\'`;
  const inOrder = dialectOf(db) === 'postgres' ? sql<boolean>`(search || '') like ${pattern} escape '\\'` : matches;
  const edge = await filtered()
    .select(['at', 'id'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(TEXT_WINDOW - 1)
    .executeTakeFirst();
  const recent = (await newestFirst(limit + 1)
    .where(inOrder)
    .$if(edge !== undefined, (select) => select.where(sql<boolean>`(at, id) >= (${edge?.at}, ${edge?.id})`))
    .execute()) as Row[];
  if (recent.length > limit || !edge) return page(recent);
  const older = filtered()
    .select(COLUMNS)
    .where(sql<boolean>`(at, id) < (${edge.at}, ${edge.id})`)
    .limit(limit + 1 - recent.length);
  const candidates = await textCandidates(db, newest, query.q);
  if (candidates) {
    // Ordered by an expression no index holds: the database starts from the text's few rows and sorts them, rather
    // than walking the time index through every older row.
    const rows = older.where(matches).where(candidates).orderBy(sql`at || ''`, 'desc').orderBy(sql`id + 0`, 'desc');
    return page([...recent, ...((await rows.execute()) as Row[])]);
  }
  // Read on in time order, but only so far: the last row read is where the next page starts.
  const stop = await filtered()
    .select(['at', 'id'])
    .where(sql<boolean>`(at, id) < (${edge.at}, ${edge.id})`)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(TEXT_SCAN_ROWS - TEXT_WINDOW - 1)
    .executeTakeFirst();
  const rows = [
    ...recent,
    ...((await older
      .where(inOrder)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .$if(stop !== undefined, (select) => select.where(sql<boolean>`(at, id) >= (${stop?.at}, ${stop?.id})`))
      .execute()) as Row[]),
  ];
  if (rows.length > limit || !stop) return page(rows);
  return { ...page(rows), Next: `${stop.at}_${stop.id}` };
}

/** Rows deleted per statement while pruning: a long delete would hold the embedded database's one writer. */
const PRUNE_BATCH = 5_000;

/** Deletes events older than the retention, a batch at a time; returns how many went. */
export async function pruneActivity(db: Kysely<Database>, now: Date, retentionDays: number): Promise<number> {
  const cutoff = formatTimestamp(new Date(now.getTime() - retentionDays * 86_400_000));
  let total = 0;
  for (;;) {
    const deleted = await writeTransaction(db, async (trx) => {
      const ids = await trx
        .selectFrom('activity_events')
        .select('id')
        .where('at', '<', cutoff)
        .orderBy('at')
        .limit(PRUNE_BATCH)
        .execute();
      if (ids.length === 0) return 0;
      await trx
        .deleteFrom('activity_events')
        .where(
          'id',
          'in',
          ids.map((row) => row.id),
        )
        .execute();
      return ids.length;
    });
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

/** Rows read per statement while exporting. */
const EXPORT_BATCH = 1_000;

export const ACTIVITY_CSV_HEADER = [
  'Id',
  'Time (UTC)',
  'Action',
  'Outcome',
  'Reason',
  'Actor',
  'Person',
  'Target type',
  'Target id',
  'Address',
  'User-Agent',
  'Details',
] as const;

/**
 * Every event the filter names, newest first, as CSV lines (the header first), read a batch at a time so that memory
 * holds a batch, not the export. More than ACTIVITY_EXPORT_MAX matching events are refused before anything is sent:
 * a narrower filter says what is wanted better than a file no spreadsheet opens.
 */
export async function exportActivity(
  db: Kysely<Database>,
  query: ActivityExportQuery,
  options: { accountEvents: boolean },
): Promise<AsyncGenerator<string>> {
  let beyond = filteredEvents(db, query, options).select('id');
  if (query.q) beyond = beyond.where(sql<boolean>`search like ${likePattern(query.q)} escape '\\'`);
  const tooMany = await beyond
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(ACTIVITY_EXPORT_MAX)
    .limit(1)
    .executeTakeFirst();
  if (tooMany) {
    const max = ACTIVITY_EXPORT_MAX.toLocaleString('en');
    throw new ProblemError(
      400,
      'validation',
      'Too many events to export',
      `More than ${max} events match this filter; an export holds at most ${max}. Narrow it (a shorter time, an action, a person) and export again.`,
    );
  }
  return (async function* lines() {
    yield csvLine(ACTIVITY_CSV_HEADER);
    let before: string | undefined;
    for (;;) {
      const page = await listActivity(db, { ...query, before, limit: EXPORT_BATCH }, options);
      for (const event of page.Events) {
        yield csvLine([
          event.Id,
          `${event.TimestampUtc.replace(' ', 'T')}Z`,
          event.Action,
          event.Outcome,
          event.Reason,
          event.Actor,
          event.Person,
          event.TargetType,
          event.TargetId,
          event.SourceIp,
          event.UserAgent,
          Object.keys(event.Details).length > 0 ? JSON.stringify(event.Details) : '',
        ]);
      }
      if (page.Next === null) return;
      before = page.Next;
    }
  })();
}
