import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp, RECOVERY_CODE_COUNT } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

/** 32 letters and digits without i, l, o, u: read aloud or typed from paper without confusion. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_CHARACTERS = 10;

/** What a typed code is compared as: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashCode = (code: string) => createHash('sha256').update(normalise(code)).digest('hex');

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARACTERS; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Ten new codes (50 random bits each), replacing all earlier ones; only their hashes are kept. */
export async function replaceRecoveryCodes(db: Kysely<Database>, principalId: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await writeTransaction(db, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('principal_id', '=', principalId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          principal_id: principalId,
          code_hash: hashCode(code),
          created_at: formatTimestamp(now),
          used_at: null,
        })),
      )
      .execute();
  });
  return codes;
}

export async function recoveryCodesLeft(db: Kysely<Database>, principalId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('principal_id', '=', principalId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Uses one of the person's codes: the number left after it, or null when the code is not one of theirs or was used
 * already. One conditional update, so two requests with the same code cannot both succeed.
 */
export async function redeemRecoveryCode(
  db: Kysely<Database>,
  principalId: number,
  code: string,
  now: Date,
): Promise<number | null> {
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: formatTimestamp(now) })
    .where('principal_id', '=', principalId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) return null;
  return recoveryCodesLeft(db, principalId);
}
