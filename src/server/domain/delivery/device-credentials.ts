import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';

/** Device credentials and enrolment codes are 256-bit random values; only their SHA-256 is stored. */
export const newSecret = () => randomBytes(32).toString('base64url');
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Ends devices for good (their credentials stop working): one device removed by its person, a person's devices
 * (disabled), or a push user's (Deleted). Inside the caller's transaction.
 */
export async function endDevicesWhere(
  trx: Kysely<Database>,
  column: 'id' | 'principal_id' | 'push_message_user_id',
  value: number,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('devices')
    .set({ ended_at: formatTimestamp(at) })
    .where(column, '=', value)
    .where('ended_at', 'is', null)
    .execute();
}
