import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp, RECOVERY_CODE_COUNT } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { hashWithSalt } from '../identity/passwords.ts';

/** 32 letters and digits without i, l, o, u: read aloud or typed from paper without confusion. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_CHARACTERS = 10;

/**
 * The most scrypt cost recovery codes take: PASSWORD_HASH_COST, up to this. A code has 50 random bits, so a leaked
 * backup must be swept code by code: at this cost (about 10 ms each, 4 MiB) and with a salt per batch, 2^50 tries are
 * out of reach, where an unsalted SHA-256 gave every code of every person in one sweep. A batch shares its salt, so
 * checking a typed code costs one derivation; making ten costs ten, which the full password cost would make seconds.
 */
export const MAX_CODE_HASH_COST = 4096;

/** What a typed code is compared as: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
/** How codes made before they were salted are stored: an unsalted SHA-256, still verified until used or replaced. */
const legacyHash = (code: string) => createHash('sha256').update(normalise(code)).digest('hex');

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARACTERS; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Ten new codes (50 random bits each), replacing all earlier ones; only their salted hashes are kept. */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  {
    principalId,
    now,
    addedBy,
    passwordHashCost,
  }: {
    principalId: number;
    now: Date;
    addedBy: string;
    /** PASSWORD_HASH_COST: codes take it, up to MAX_CODE_HASH_COST. */
    passwordHashCost: number;
  },
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const salt = randomBytes(16);
  const cost = Math.min(passwordHashCost, MAX_CODE_HASH_COST);
  const hashes = await Promise.all(codes.map((code) => hashWithSalt(normalise(code), salt, cost)));
  await writeTransaction(db, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('principal_id', '=', principalId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        hashes.map((hash) => ({
          principal_id: principalId,
          code_hash: hash,
          created_at: formatTimestamp(now),
          used_at: null,
          added_by: addedBy,
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

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The unused row a typed code is, or undefined: one derivation per salt among the person's codes (one batch: one). */
async function matchingCode(rows: { id: number; code_hash: string }[], code: string): Promise<number | undefined> {
  const typed = normalise(code);
  const derived = new Map<string, string>();
  for (const row of rows) {
    const [scheme, n, , , salt] = row.code_hash.split('$');
    if (scheme !== 'scrypt' || !salt) {
      if (sameText(row.code_hash, legacyHash(typed))) return row.id;
      continue;
    }
    const key = `${n}$${salt}`;
    let hash = derived.get(key);
    if (hash === undefined) {
      hash = await hashWithSalt(typed, Buffer.from(salt, 'base64url'), Number(n));
      derived.set(key, hash);
    }
    if (sameText(row.code_hash, hash)) return row.id;
  }
  return undefined;
}

/**
 * Uses one of the person's codes: the number left after it, or null when the code is not one of theirs or was used
 * already. The use is one conditional update, so two requests with the same code cannot both succeed.
 */
export async function redeemRecoveryCode(
  db: Kysely<Database>,
  principalId: number,
  code: string,
  now: Date,
): Promise<number | null> {
  const rows = await db
    .selectFrom('recovery_codes')
    .select(['id', 'code_hash'])
    .where('principal_id', '=', principalId)
    .where('used_at', 'is', null)
    .execute();
  const id = await matchingCode(rows, code);
  if (id === undefined) return null;
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: formatTimestamp(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) return null;
  return recoveryCodesLeft(db, principalId);
}
