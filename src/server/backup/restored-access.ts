import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../shared/contract/index.ts';
import type { Database } from '../db/schema.ts';
import { writeTransaction } from '../db/write-transaction.ts';

/** What a restore ended, counted for its output and the audit stream. */
export interface RestoredAccessEnded {
  sessions: number;
  devices: number;
  enrollmentCodes: number;
}

/**
 * A backup still holds the sessions, device credentials and enrolment codes of its moment, among them ones that ended
 * after it was taken (signed out, removed, "This wasn't me", used). None of them may work again: every session ends
 * (everyone signs in again), every device ends (each enrols again and is approved again, as a new phone would be),
 * and unused enrolment codes are dropped. Push users, accounts and the history stay as the backup has them.
 */
export async function endRestoredAccess(db: Kysely<Database>, now: Date): Promise<RestoredAccessEnded> {
  const stamp = formatTimestamp(now);
  return writeTransaction(db, async (trx) => {
    const sessions = await trx
      .updateTable('sessions')
      .set({ revoked_at: stamp })
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const devices = await trx
      .updateTable('devices')
      .set({ ended_at: stamp })
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    const codes = await trx.deleteFrom('enrollment_codes').where('used_at', 'is', null).executeTakeFirst();
    return {
      sessions: Number(sessions.numUpdatedRows),
      devices: Number(devices.numUpdatedRows),
      enrollmentCodes: Number(codes.numDeletedRows),
    };
  });
}
