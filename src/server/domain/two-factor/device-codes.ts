import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { deviceSignal, writeAndPublish } from '../core/change-feed.ts';
import {
  type CodeRequest,
  deliver,
  type InstructionRow,
  type Issued,
  issueAnotherToken,
  issueToken,
  judgeToken,
  MAX_TOKENS_ISSUED,
  newCodeSignal,
  type Outcome,
  reportOf,
  type StepUpDevices,
  type TokenDelivery,
} from './instructions.ts';

/**
 * Device codes of the dashboard's own sign-in: typed back as the second step after a password, or as a step-up. Each
 * is an instruction of its own purpose, bound to the one ticket or session that asked for it, so the instruction
 * codes' machinery carries it: the per-person cap, the device inbox and Web Push, the wrong-code lock, the cap on
 * codes per instruction, and "This wasn't me".
 */
export type DeviceCodePurpose = 'sign-in' | 'step-up';

/** What the device inbox and the push notification call such a code. */
export const DEVICE_CODE_NAMES: Record<DeviceCodePurpose, string> = {
  'sign-in': 'Dashboard sign-in',
  'step-up': 'Dashboard: confirm it is you',
};

export interface DeviceCodeOwner {
  userName: string;
  userKey: string;
}

export interface DeviceCodeSent {
  expires: Date;
  /** What the person calls each device it went to ("Pixel 9"). */
  deviceNames: string[];
}

/** The latest code bound to this ticket or session, of this person. */
function boundCode(db: Kysely<Database>, owner: DeviceCodeOwner, purpose: DeviceCodePurpose, proofFor: string) {
  return db
    .selectFrom('instructions')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('proof_for', '=', proofFor)
    .where('created_by_key', '=', owner.userKey)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What a device code is bound to: the ticket or session (`proofFor`), and when that ends. */
export interface DeviceCodeBinding {
  purpose: DeviceCodePurpose;
  proofFor: string;
  /** The end of the ticket or session: the code never lasts beyond it. */
  notAfter: Date;
  /** For a step-up: the devices that may prove it (see StepUpDevices). */
  stepUp?: StepUpDevices;
}

/**
 * Sends a code for this ticket or session to the person's own Active devices: a new one replaces the one before it
 * (at most MAX_TOKENS_ISSUED for one sign-in), and the per-person cap counts them with every other code.
 */
export async function sendDeviceCode(
  { db, clock, delivery }: { db: Kysely<Database>; clock: Clock; delivery: TokenDelivery },
  {
    owner,
    binding: { purpose, proofFor, notAfter, stepUp },
    request,
  }: { owner: DeviceCodeOwner; binding: DeviceCodeBinding; request: CodeRequest },
): Promise<DeviceCodeSent> {
  const now = clock();
  const { row, issued } = await writeAndPublish(
    db,
    delivery.changes,
    async (trx): Promise<{ row: InstructionRow; issued: Issued }> => {
      let row = await boundCode(trx, owner, purpose, proofFor);
      if (row && row.state !== 'Authenticated') {
        if (await reportOf(trx, row.id))
          throw codeEnded('It was reported from your device as not asked for by you. Sign in again.');
        if (row.tokens_issued >= MAX_TOKENS_ISSUED) {
          throw new ProblemError(
            409,
            'token-reissue-limit',
            'No more codes for this sign-in',
            `${MAX_TOKENS_ISSUED} codes were sent for this sign-in, the most one may have. Start again with your password.`,
            { extensions: { maxTokens: MAX_TOKENS_ISSUED } },
          );
        }
        return {
          row,
          issued: await issueAnotherToken(trx, {
            now,
            instruction: row,
            request,
            keepPlainTokens: delivery.keepPlainTokens,
            notAfter,
            stepUp,
          }),
        };
      }
      row = await trx
        .insertInto('instructions')
        .values({
          name: DEVICE_CODE_NAMES[purpose],
          scheduled: 0,
          created_by: owner.userName,
          created_by_key: owner.userKey,
          state: 'AwaitingTwoFactor',
          token_hash: null,
          token_expires_at: null,
          failed_attempts: 0,
          created_at: formatTimestamp(now),
          authenticated_at: null,
          purpose,
          proof_for: proofFor,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return {
        row,
        issued: await issueToken(trx, {
          now,
          instruction: row,
          request,
          keepPlainTokens: delivery.keepPlainTokens,
          notAfter,
          stepUp,
        }),
      };
    },
    newCodeSignal,
  );
  deliver(delivery, row, issued);
  return { expires: issued.expires, deviceNames: issued.deviceNames };
}

const codeEnded = (why: string) =>
  new ProblemError(401, 'device-code-expired', 'Code no longer works', `That code no longer works. ${why}`);

/** A wrong code: the problem the second step and step-up answer, with the tries left on this code. */
const codeInvalid = (detail: string, attemptsLeft?: number) =>
  new ProblemError(401, 'device-code-invalid', 'Code not accepted', detail, {
    ...(attemptsLeft === undefined ? {} : { extensions: { attemptsLeft } }),
  });

/**
 * Judges a code typed back for this ticket or session: null when right (it is used up), otherwise the refusal. A code
 * sent for another sign-in, another session or another person is never this one's, so it is simply wrong here.
 */
export async function judgeDeviceCode(
  { db, clock, delivery }: { db: Kysely<Database>; clock: Clock; delivery: TokenDelivery },
  {
    owner,
    purpose,
    proofFor,
    code,
  }: {
    owner: DeviceCodeOwner;
    purpose: DeviceCodePurpose;
    /** What the code is bound to: a sign-in's ticket or a session (by its hash). */
    proofFor: string;
    code: string;
  },
): Promise<ProblemError | null> {
  // Wrong tries must commit, so the transaction returns its problem instead of throwing it.
  const outcome = await writeAndPublish(
    db,
    delivery.changes,
    async (trx): Promise<Outcome> => {
      const row = await boundCode(trx, owner, purpose, proofFor);
      if (!row) return { problem: codeInvalid('No code was sent to your devices for this sign-in: send one first.') };
      return judgeToken(trx, { row, token: code, now: clock(), delivery });
    },
    (outcome) => ('problem' in outcome ? [] : deviceSignal(outcome.deviceIds)),
  );
  if (!('problem' in outcome)) return null;
  switch (outcome.problem.kind) {
    case 'invalid-token': {
      const left = Number(outcome.problem.extensions?.attemptsLeft ?? 0);
      return codeInvalid(
        `That is not the code sent to your devices. ${left} ${left === 1 ? 'try' : 'tries'} left on it.`,
        left,
      );
    }
    case 'token-expired':
      return codeEnded('Its time ran out: send a new one.');
    case 'instruction-locked':
      return codeEnded('It was typed wrong too many times: send a new one.');
    case 'already-authenticated':
      return codeEnded('It was used already: send a new one.');
    default:
      return outcome.problem;
  }
}
