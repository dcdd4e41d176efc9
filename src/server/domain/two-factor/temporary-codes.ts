import { randomInt } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  formatTimestamp,
  type IssuedTemporaryCode,
  TEMPORARY_CODE_DIGITS,
  type TemporaryCode,
  type TemporaryCodeRequest,
  type TemporaryCodeState,
} from '../../../shared/contract/index.ts';
import type { Database, TemporaryCodeTable, TemporaryCodeUseTable } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound, ProblemError } from '../../lib/problem-error.ts';
import { type ChangePublisher, deviceSignal, writeAndPublish } from '../core/change-feed.ts';
import { type NewDeviceNotice, recordTemporaryCodeNotices } from '../delivery/device-notices.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';

/*
 * Temporary codes: the helpdesk's answer to a lost phone. The code exists once, in the answer that issues it; the
 * service keeps its scrypt hash like a password's. A person has few at a time, so checking one means hashing the
 * typed code against each of their valid ones.
 */

/** Twelve random digits (about 40 bits), grouped in fours to read out over the phone. */
function newCode(): string {
  let digits = '';
  for (let i = 0; i < TEMPORARY_CODE_DIGITS; i++) digits += String(randomInt(10));
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** What a person types, as stored: digits only (spaces and dashes are how it was read out). */
const normalized = (typed: string) => typed.replace(/[\s-]/g, '');

type Row = Pick<
  Selectable<TemporaryCodeTable>,
  'id' | 'issued_by' | 'issued_at' | 'expires_at' | 'uses_allowed' | 'uses_made' | 'revoked_by' | 'revoked_at'
>;

function stateOf(row: Row, now: Date): TemporaryCodeState {
  if (row.revoked_at !== null) return 'Revoked';
  if (Number(row.uses_made) >= row.uses_allowed) return 'UsedUp';
  if (row.expires_at <= formatTimestamp(now)) return 'Expired';
  return 'Valid';
}

const USE_PURPOSE = { instruction: 'Instruction', 'sign-in': 'SignIn' } as const;

function toTemporaryCode(
  row: Row,
  uses: Pick<TemporaryCodeUseTable, 'purpose' | 'used_at' | 'client_address'>[],
  now: Date,
) {
  return {
    Id: row.id,
    IssuedBy: row.issued_by,
    IssuedUtc: row.issued_at,
    ExpiresUtc: row.expires_at,
    UsesAllowed: row.uses_allowed,
    State: stateOf(row, now),
    RevokedBy: row.revoked_by,
    RevokedUtc: row.revoked_at,
    Uses: uses.map((use) => ({
      UsedUtc: use.used_at,
      Purpose: USE_PURPOSE[use.purpose],
      ClientAddress: use.client_address,
    })),
  } satisfies TemporaryCode;
}

const COLUMNS = [
  'id',
  'issued_by',
  'issued_at',
  'expires_at',
  'uses_allowed',
  'uses_made',
  'revoked_by',
  'revoked_at',
] as const;

/**
 * Issues a code for a person's account; the answer carries the code this once. Every Active device of the person
 * is told in the same transaction (delivery/device-notices.ts: who issued it, until when, never the code), and their
 * streams once committed; the caller pushes `notice` by Web Push.
 */
export async function issueTemporaryCode({
  db,
  clock,
  changes,
  hashCost,
  account,
  request,
  issuedBy,
}: {
  db: Kysely<Database>;
  clock: Clock;
  /** Where the devices' streams hear of the notice, once committed. */
  changes: ChangePublisher | null;
  hashCost: number;
  account: { id: number; userName: string };
  request: TemporaryCodeRequest;
  issuedBy: string;
}): Promise<{ code: IssuedTemporaryCode; notice: NewDeviceNotice }> {
  const code = newCode();
  const codeHash = await hashPassword(normalized(code), hashCost);
  const now = clock();
  const validUntil = new Date(now.getTime() + request.ValidMinutes * 60_000);
  return writeAndPublish(
    db,
    changes,
    async (trx) => {
      const row = await trx
        .insertInto('temporary_codes')
        .values({
          principal_id: account.id,
          code_hash: codeHash,
          issued_by: issuedBy,
          issued_at: formatTimestamp(now),
          expires_at: formatTimestamp(validUntil),
          uses_allowed: request.Uses,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      const notice = await recordTemporaryCodeNotices(trx, account.userName, { id: row.id, issuedBy, validUntil }, now);
      return { code: { ...toTemporaryCode(row, [], now), Code: code }, notice };
    },
    ({ notice }) => deviceSignal(notice.deviceIds),
  );
}

/** A person's temporary codes, newest first, with their uses (never the code). */
export async function listTemporaryCodes(
  db: Kysely<Database>,
  clock: Clock,
  principalId: number,
): Promise<TemporaryCode[]> {
  const rows = await db
    .selectFrom('temporary_codes')
    .select(COLUMNS)
    .where('principal_id', '=', principalId)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  if (rows.length === 0) return [];
  const uses = await db
    .selectFrom('temporary_code_uses')
    .select(['temporary_code_id', 'purpose', 'used_at', 'client_address'])
    .where(
      'temporary_code_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('id')
    .execute();
  const now = clock();
  return rows.map((row) =>
    toTemporaryCode(
      row,
      uses.filter((use) => use.temporary_code_id === row.id),
      now,
    ),
  );
}

/** Whose code this is (for the helpdesk's reach), or 404. */
export async function temporaryCodeOwner(
  db: Kysely<Database>,
  id: number,
): Promise<{ principalId: number; userName: string }> {
  const row = await db
    .selectFrom('temporary_codes')
    .innerJoin('principals', 'principals.id', 'temporary_codes.principal_id')
    .select(['principals.id as principalId', 'principals.user_name as userName'])
    .where('temporary_codes.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Temporary code', id);
  return row;
}

/** Revokes a code; revoking it again changes nothing. */
export async function revokeTemporaryCode(db: Kysely<Database>, clock: Clock, id: number, by: string): Promise<void> {
  await db
    .updateTable('temporary_codes')
    .set({ revoked_by: by, revoked_at: formatTimestamp(clock()) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether a person holds a code that still works (an instruction is then made for them without a device). */
export async function holdsValidTemporaryCode(db: Kysely<Database>, principalId: number, now: Date): Promise<boolean> {
  const row = await validCodes(db, principalId, formatTimestamp(now)).select('id').executeTakeFirst();
  return row !== undefined;
}

const validCodes = (db: Kysely<Database>, principalId: number, now: string) =>
  db
    .selectFrom('temporary_codes')
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .whereRef('uses_made', '<', 'uses_allowed');

/**
 * The valid code of this person that matches what they typed, or null. Only checks: the hash is worked out before
 * any write begins, and spendTemporaryCode takes the use inside the write.
 */
export async function matchTemporaryCode(
  db: Kysely<Database>,
  clock: Clock,
  principalId: number,
  typed: string,
): Promise<number | null> {
  const digits = normalized(typed);
  if (!/^\d+$/.test(digits) || digits.length !== TEMPORARY_CODE_DIGITS) return null;
  const candidates = await validCodes(db, principalId, formatTimestamp(clock())).select(['id', 'code_hash']).execute();
  for (const candidate of candidates) {
    if (await verifyPassword(digits, candidate.code_hash)) return candidate.id;
  }
  return null;
}

/**
 * One use of a matched code, inside the caller's write: false when it stopped working meanwhile (revoked, expired,
 * or its last use spent by another request), so two requests cannot both spend a last use.
 */
export async function spendTemporaryCode(
  trx: Kysely<Database>,
  id: number,
  purpose: TemporaryCodeUseTable['purpose'],
  now: Date,
  clientAddress: string | null,
): Promise<boolean> {
  const at = formatTimestamp(now);
  const spent = await trx
    .updateTable('temporary_codes')
    .set((eb) => ({ uses_made: eb('uses_made', '+', 1) }))
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .whereRef('uses_made', '<', 'uses_allowed')
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return false;
  await trx
    .insertInto('temporary_code_uses')
    .values({ temporary_code_id: id, purpose, used_at: at, client_address: clientAddress })
    .execute();
  return true;
}

/** Checks and spends one use of a code this person typed: the code's id, or null when none works. */
export async function useTemporaryCode(
  { db, clock }: { db: Kysely<Database>; clock: Clock },
  {
    principalId,
    typed,
    purpose,
    clientAddress,
  }: { principalId: number; typed: string; purpose: TemporaryCodeUseTable['purpose']; clientAddress: string | null },
): Promise<number | null> {
  const id = await matchTemporaryCode(db, clock, principalId, typed);
  if (id === null) return null;
  const spent = await writeTransaction(db, (trx) => spendTemporaryCode(trx, id, purpose, clock(), clientAddress));
  return spent ? id : null;
}

/** Why a code was refused, in words (the same for a wrong, used-up, expired or revoked code: none is told apart). */
export const temporaryCodeRefused = () =>
  new ProblemError(
    401,
    'temporary-code-invalid',
    'Code not accepted',
    'That temporary code is not right, or it has expired, been used up or been revoked. Ask the helpdesk for a new one.',
  );
