import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type DemoInstruction,
  formatTimestamp,
  MAX_TOKEN_ATTEMPTS,
  PushUserStatusCode,
  TOKEN_LIFETIME_MINUTES,
  type TokenAccepted,
} from '../../shared/contract/index.ts';
import type { Database } from '../db/schema.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import { addMinutes, type Clock, storedTime } from './clock.ts';
import type { Principal } from './principals.ts';
import { notFound, ProblemError } from './problem-error.ts';

/**
 * Tokens one instruction may be issued, the first included. Each new token resets the wrong-token count, so without
 * a cap reissuing would give a guesser unlimited tries at a six-digit token.
 */
export const MAX_TOKENS_ISSUED = 5;

function hashToken(token: string, salt: string): string {
  return `${salt}:${createHash('sha256').update(`${salt}:${token}`).digest('hex')}`;
}

function tokenMatches(token: string, stored: string): boolean {
  const [salt = ''] = stored.split(':');
  const actual = Buffer.from(hashToken(token, salt));
  const expected = Buffer.from(stored);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const kindName = (scheduled: boolean) => (scheduled ? 'Scheduled instruction' : 'Instruction');

/** A fresh 6-digit token, stored hashed, and pushed to every Active device of the instruction's creator. */
async function issueToken(
  trx: Kysely<Database>,
  now: Date,
  instruction: { id: number; scheduled: number; created_by_key: string },
  keepPlainToken: boolean,
): Promise<number> {
  const token = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await trx
    .updateTable('instructions')
    .set({
      token_hash: hashToken(token, randomBytes(8).toString('hex')),
      token_expires_at: formatTimestamp(addMinutes(now, TOKEN_LIFETIME_MINUTES)),
      failed_attempts: 0,
      state: 'AwaitingTwoFactor',
    })
    .where('id', '=', instruction.id)
    .execute();
  const devices = await trx
    .selectFrom('push_message_users')
    .select('id')
    .where('user_key', '=', instruction.created_by_key)
    .where('status', '=', PushUserStatusCode.Active)
    .execute();
  if (devices.length > 0) {
    await trx
      .insertInto('pushes')
      .values(
        devices.map((device) => ({
          push_message_user_id: device.id,
          instruction_id: instruction.id,
          scheduled: instruction.scheduled,
          token: keepPlainToken ? token : null,
          sent_at: formatTimestamp(now),
        })),
      )
      .execute();
  }
  return devices.length;
}

export async function createInstruction(
  db: Kysely<Database>,
  clock: Clock,
  creator: Principal,
  scheduled: boolean,
  keepPlainToken: boolean,
): Promise<DemoInstruction> {
  return writeTransaction(db, async (trx) => {
    const now = clock();
    const row = await trx
      .insertInto('instructions')
      .values({
        scheduled: scheduled ? 1 : 0,
        created_by: creator.userName,
        created_by_key: creator.userKey,
        state: 'AwaitingTwoFactor',
        token_hash: null,
        token_expires_at: null,
        failed_attempts: 0,
        created_at: formatTimestamp(now),
        authenticated_at: null,
      })
      .returning(['id', 'scheduled', 'created_by_key'])
      .executeTakeFirstOrThrow();
    const deliveredTo = await issueToken(trx, now, row, keepPlainToken);
    return {
      Id: row.id,
      Scheduled: scheduled,
      CreatedBy: creator.userName,
      State: 'AwaitingTwoFactor',
      DeliveredTo: deliveredTo,
    };
  });
}

type Outcome = { ok: TokenAccepted } | { problem: ProblemError };

/**
 * #2-#4: checks a two-factor token. Wrong tokens are counted in the same transaction,
 * so the lock after MAX_TOKEN_ATTEMPTS holds however many tries arrive at once.
 */
export async function submitToken(
  db: Kysely<Database>,
  clock: Clock,
  caller: Principal,
  id: number,
  scheduled: boolean,
  token: string,
): Promise<TokenAccepted> {
  // Failed attempts must commit, so the transaction returns its problem instead of throwing it.
  const outcome = await writeTransaction(db, async (trx): Promise<Outcome> => {
    const row = await trx
      .selectFrom('instructions')
      .selectAll()
      .where('id', '=', id)
      .where('scheduled', '=', scheduled ? 1 : 0)
      .executeTakeFirst();
    if (!row) return { problem: notFound(kindName(scheduled), id) };
    if (row.created_by_key !== caller.userKey) {
      return {
        problem: new ProblemError(
          403,
          'not-creator',
          'Not your instruction',
          // Naming the creator would tell any signed-in person who runs which instruction.
          `Only the person who created ${kindName(scheduled).toLowerCase()} ${id} may submit its token.`,
        ),
      };
    }
    if (row.state === 'Authenticated') {
      return {
        problem: new ProblemError(
          409,
          'already-authenticated',
          'Already authenticated',
          `${kindName(scheduled)} ${id} was already authenticated at ${row.authenticated_at} UTC.`,
        ),
      };
    }
    if (row.failed_attempts >= MAX_TOKEN_ATTEMPTS) return { problem: locked(scheduled, id) };
    const now = clock();
    if (
      row.state === 'Expired' ||
      !row.token_hash ||
      !row.token_expires_at ||
      now >= storedTime(row.token_expires_at)
    ) {
      await trx.updateTable('instructions').set({ state: 'Expired' }).where('id', '=', id).execute();
      return {
        problem: new ProblemError(
          422,
          'token-expired',
          'Token expired',
          `The token for ${kindName(scheduled).toLowerCase()} ${id} has expired (tokens last ${TOKEN_LIFETIME_MINUTES} minutes). Request a new one.`,
        ),
      };
    }
    if (!tokenMatches(token, row.token_hash)) {
      const counted = await trx
        .updateTable('instructions')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('id', '=', id)
        .returning('failed_attempts')
        .executeTakeFirstOrThrow();
      if (counted.failed_attempts >= MAX_TOKEN_ATTEMPTS) return { problem: locked(scheduled, id) };
      const left = MAX_TOKEN_ATTEMPTS - counted.failed_attempts;
      return {
        problem: new ProblemError(
          422,
          'invalid-token',
          'Wrong token',
          `That token is not correct for ${kindName(scheduled).toLowerCase()} ${id}. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
          { extensions: { attemptsLeft: left } },
        ),
      };
    }
    await trx
      .updateTable('instructions')
      .set({ state: 'Authenticated', token_hash: null, authenticated_at: formatTimestamp(now) })
      .where('id', '=', id)
      .execute();
    return { ok: { Id: id, Authenticated: true, Successful: true } };
  });
  if ('problem' in outcome) throw outcome.problem;
  return outcome.ok;
}

function locked(scheduled: boolean, id: number): ProblemError {
  return new ProblemError(
    423,
    'instruction-locked',
    'Locked',
    `${kindName(scheduled)} ${id} is locked after ${MAX_TOKEN_ATTEMPTS} wrong tokens. Request a new token.`,
  );
}

/** Issues a new token for the caller's own instruction (demo: a locked or expired one can be retried). */
export async function reissueToken(
  db: Kysely<Database>,
  clock: Clock,
  caller: Principal,
  id: number,
  keepPlainToken: boolean,
): Promise<DemoInstruction> {
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('instructions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.created_by_key !== caller.userKey) throw notFound('Instruction', id);
    if (row.state === 'Authenticated') {
      throw new ProblemError(
        409,
        'already-authenticated',
        'Already authenticated',
        `Instruction ${id} is already authenticated.`,
      );
    }
    if (row.tokens_issued >= MAX_TOKENS_ISSUED) {
      throw new ProblemError(
        409,
        'token-reissue-limit',
        'No more tokens for this instruction',
        `Instruction ${id} has been issued ${MAX_TOKENS_ISSUED} tokens, the most one instruction may have. Create a new instruction.`,
        { extensions: { maxTokens: MAX_TOKENS_ISSUED } },
      );
    }
    await trx
      .updateTable('instructions')
      .set((eb) => ({ tokens_issued: eb('tokens_issued', '+', 1) }))
      .where('id', '=', id)
      .execute();
    const deliveredTo = await issueToken(trx, clock(), row, keepPlainToken);
    return {
      Id: id,
      Scheduled: row.scheduled === 1,
      CreatedBy: row.created_by,
      State: 'AwaitingTwoFactor',
      DeliveredTo: deliveredTo,
    };
  });
}
