import type { Kysely } from 'kysely';
import type { SetupProgress } from '../../../shared/contract/index.ts';
import { type Config, isLoopbackHost } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { userKeyOf } from '../accounts/principals.ts';

/** Whether a table has a row matching; one cheap indexed look each, not a count. */
async function any(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * A new organisation's set-up, read from the service's own state: the address phones are sent to, accounts beyond
 * the first administrator (or a directory), a registered device, a code sent.
 */
export async function setupProgress(db: Kysely<Database>, config: Config): Promise<SetupProgress> {
  const host = new URL(config.publicUrl).hostname;
  const adminKey = config.adminUserName ? userKeyOf(config.adminUserName) : null;
  let others = db.selectFrom('principals').select('id').where('enabled', '=', 1);
  if (adminKey) others = others.where('user_key', '!=', adminKey);
  const [accountsAdded, deviceEnrolled, codeSent] = await Promise.all([
    any(others.limit(1)),
    any(db.selectFrom('push_message_users').select('id').limit(1)),
    any(db.selectFrom('instructions').select('id').limit(1)),
  ]);
  return {
    Demo: config.demo,
    PublicUrl: config.publicUrl,
    PublicUrlReachable: !isLoopbackHost(host),
    AccountsAdded: accountsAdded,
    DirectoryConnected: config.directory !== null,
    DeviceEnrolled: deviceEnrolled,
    CodeSent: codeSent,
  };
}
