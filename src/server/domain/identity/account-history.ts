import type { Kysely } from 'kysely';
import { type AccountHistoryAction, formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';

/** Where a sign-in comes from, for the account history and the audit stream (lib/request-facts.ts reads it). */
export interface SignInContext {
  clientAddress: string;
  consumer: string | null;
  /** The client's User-Agent, for the audit stream. */
  userAgent?: string | null;
  /** The request came from a browser (the dashboard's pages): API accounts are refused there. */
  browser?: boolean;
}

export interface AccountHistoryRecord {
  principalId: number | null;
  userName: string;
  action: AccountHistoryAction;
  detail?: string | null;
  clientAddress?: string | null;
  consumer?: string | null;
  changedBy?: string | null;
  at: Date;
}

/** Records a sign-in or account change; inside the change's transaction when there is one. Never a password. */
export async function recordAccountHistory(db: Kysely<Database>, record: AccountHistoryRecord): Promise<void> {
  await db
    .insertInto('account_history')
    .values({
      principal_id: record.principalId,
      user_name: record.userName.slice(0, 256),
      action: record.action,
      detail: record.detail ?? null,
      client_address: record.clientAddress ?? null,
      consumer: record.consumer ?? null,
      changed_by: record.changedBy ?? null,
      changed_at: formatTimestamp(record.at),
    })
    .execute();
}

/** The same for a sign-in or a person's own change: with where the request came from. */
export function recordAccountHistoryFrom(
  db: Kysely<Database>,
  where: Pick<SignInContext, 'clientAddress' | 'consumer'>,
  record: Omit<AccountHistoryRecord, 'clientAddress' | 'consumer'>,
): Promise<void> {
  return recordAccountHistory(db, { ...record, clientAddress: where.clientAddress, consumer: where.consumer });
}
