import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../../shared/contract/index.ts';
import type { Database, WebAuthnChallengeTable } from '../../../db/schema.ts';

/** A WebAuthn ceremony has this long between its options and its answer. */
export const CHALLENGE_MINUTES = 5;

export type ChallengePurpose = WebAuthnChallengeTable['purpose'];

export async function saveChallenge(
  db: Kysely<Database>,
  challenge: string,
  purpose: ChallengePurpose,
  principalId: number | null,
  expires: Date,
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge, purpose, principal_id: principalId, expires_at: formatTimestamp(expires) })
    .execute();
}

/**
 * Takes a challenge for good: true when it was issued for this purpose (and this person, when it names one) and has
 * not expired. Deleted whatever the answer, so a replayed or guessed answer never meets it again.
 */
export async function takeChallenge(
  db: Kysely<Database>,
  challenge: string,
  purpose: ChallengePurpose,
  principalId: number | null,
  now: Date,
): Promise<boolean> {
  const row = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .returning(['purpose', 'principal_id', 'expires_at'])
    .executeTakeFirst();
  if (!row) return false;
  return row.purpose === purpose && row.principal_id === principalId && row.expires_at > formatTimestamp(now);
}

/** Challenges nobody answered. */
export async function purgeChallenges(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', formatTimestamp(now)).execute();
}
