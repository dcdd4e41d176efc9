import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';

/** Ends every session of an account (inside the caller's transaction). The caller forgets them in memory after. */
export async function revokeSessionsOf(
  trx: Kysely<Database>,
  principalId: number,
  at: Date,
  exceptTokenHash: string | null = null,
): Promise<void> {
  let update = trx
    .updateTable('sessions')
    .set({ revoked_at: formatTimestamp(at) })
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null);
  if (exceptTokenHash) update = update.where('token_hash', '!=', exceptTokenHash);
  await update.execute();
}
