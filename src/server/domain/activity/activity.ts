import { type Kysely, sql } from 'kysely';
import {
  ACTIVITY_PAGE_DEFAULT,
  type ActivityEvent,
  type ActivityPage,
  type ActivityQuery,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { userKeyOf } from '../identity/principals.ts';

/**
 * Events of account administration: sign-ins and their failures, second factors, step-ups, accounts and API accounts.
 * A person's page withholds their account and sign-ins from a caller without Read on Accounts; the Activity page does
 * the same with these.
 */
export const ACCOUNT_ACTIONS: readonly string[] = [
  'sign-in',
  'sign-out',
  'session-ended',
  'account-created',
  'account-changed',
  'account-disabled',
  'account-password-reset',
  'api-account-created',
  'api-account-secret-rotated',
  'second-factor-added',
  'second-factor-removed',
  'second-factor-verified',
  'second-factor-failed',
  'recovery-code-used',
  'sign-in-methods-reset',
  'step-up',
];

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
 * One page of events, newest first. Every filter is an equality on an indexed column (or a range on the time), and
 * the order (at, id) descending continues the index, so the first page reads about `limit` rows whatever the table
 * holds; free text alone reads on until it has a page.
 */
export async function listActivity(
  db: Kysely<Database>,
  query: ActivityQuery,
  options: { accountEvents: boolean },
): Promise<ActivityPage> {
  const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
  let select = db
    .selectFrom('activity_events')
    .select([
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
    ]);
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
  if (query.q) {
    // One lower-cased column, matched with LIKE (its pattern lower-cased too, so both dialects match any case).
    const pattern = likePattern(query.q);
    select = select.where(sql<boolean>`search like ${pattern} escape '\\'`);
  }
  if (query.before) {
    const cut = query.before.lastIndexOf('_');
    const at = query.before.slice(0, cut);
    const id = Number(query.before.slice(cut + 1));
    // A row value: both databases walk the (…, at, id) index from the cursor, where an OR of two ranges reads on.
    select = select.where(sql<boolean>`(at, id) < (${at}, ${id})`);
  }
  const rows = (await select
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()) as Row[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    Events: page.map(toEvent),
    Next: rows.length > limit && last ? `${last.at}_${last.id}` : null,
  };
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
