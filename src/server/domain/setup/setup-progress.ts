import type { Kysely } from 'kysely';
import type { SetupProgress } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { userKeyOf } from '../identity/principals.ts';

/** Whether a table has a row matching; one cheap indexed look each, not a count. */
async function any(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

/** What the configuration says of the set-up (the rest is read from the database). */
export interface SetupFacts {
  demo: boolean;
  publicUrl: string;
  /** PUBLIC_URL names an address a phone can reach (not loopback). */
  publicUrlReachable: boolean;
  /** The break-glass administrator, who does not count as an account added. */
  adminUserName: string | null;
  directoryConnected: boolean;
}

/**
 * A new organisation's set-up, read from the service's own state: the address phones are sent to, accounts beyond
 * the first administrator (or a directory), a registered device, a code sent.
 */
export async function setupProgress(db: Kysely<Database>, facts: SetupFacts): Promise<SetupProgress> {
  const adminKey = facts.adminUserName ? userKeyOf(facts.adminUserName) : null;
  let others = db.selectFrom('principals').select('id').where('enabled', '=', 1);
  if (adminKey) others = others.where('user_key', '!=', adminKey);
  const [accountsAdded, deviceEnrolled, codeSent] = await Promise.all([
    any(others.limit(1)),
    any(db.selectFrom('push_message_users').select('id').limit(1)),
    any(db.selectFrom('instructions').select('id').limit(1)),
  ]);
  return {
    Demo: facts.demo,
    PublicUrl: facts.publicUrl,
    PublicUrlReachable: facts.publicUrlReachable,
    AccountsAdded: accountsAdded,
    DirectoryConnected: facts.directoryConnected,
    DeviceEnrolled: deviceEnrolled,
    CodeSent: codeSent,
  };
}
