import type { Kysely } from 'kysely';
import {
  type DevicePush,
  type DevicePushPurpose,
  formatTimestamp,
  MAX_TOKEN_ATTEMPTS,
  PushUserStatusCode,
} from '../../../shared/contract/index.ts';
import type { Database, InstructionPurpose } from '../../db/schema.ts';

const PURPOSES: Record<InstructionPurpose, DevicePushPurpose> = {
  instruction: 'Instruction',
  'sign-in': 'SignIn',
  'step-up': 'StepUp',
};

/** The most codes an inbox lists: a person has a handful at a time, the cap on codes sees to it. */
const INBOX_LIMIT = 50;

/**
 * The codes a device can use now, newest first: pushed to the push user it is while Active, each the latest code of
 * its instruction, not expired, not reported, its instruction still waiting for it and not locked. `instructionId`
 * narrows it to one instruction's code (the live stream's "a code arrived").
 */
export async function listDevicePushes(
  db: Kysely<Database>,
  device: { pushMessageUserId: number | null },
  now: Date,
  instructionId?: number,
): Promise<DevicePush[]> {
  if (device.pushMessageUserId === null) return [];
  let query = db
    .selectFrom('pushes')
    .innerJoin('token_issues', 'token_issues.id', 'pushes.token_issue_id')
    .innerJoin('instructions', 'instructions.id', 'pushes.instruction_id')
    .innerJoin('push_message_users', 'push_message_users.id', 'pushes.push_message_user_id')
    .select([
      'instructions.id',
      'instructions.name',
      'instructions.scheduled',
      'instructions.purpose',
      'pushes.token',
      'pushes.sent_at',
      'token_issues.expires_at',
      'token_issues.client_address',
      'token_issues.user_agent',
    ])
    .where('pushes.push_message_user_id', '=', device.pushMessageUserId)
    .where('push_message_users.status', '=', PushUserStatusCode.Active)
    .where('pushes.token', 'is not', null)
    .where('token_issues.expires_at', '>', formatTimestamp(now))
    .where('token_issues.reported_at', 'is', null)
    .where('instructions.state', '=', 'AwaitingTwoFactor')
    .where('instructions.token_hash', 'is not', null)
    .where('instructions.failed_attempts', '<', MAX_TOKEN_ATTEMPTS)
    // A newer code replaces the one before it.
    .where((eb) =>
      eb(
        'token_issues.id',
        '=',
        eb
          .selectFrom('token_issues as latest')
          .select((inner) => inner.fn.max('latest.id').as('id'))
          .whereRef('latest.instruction_id', '=', 'instructions.id'),
      ),
    );
  if (instructionId !== undefined) query = query.where('instructions.id', '=', instructionId);
  const rows = await query.orderBy('pushes.id', 'desc').limit(INBOX_LIMIT).execute();
  return rows.map((row) => ({
    InstructionId: row.id,
    Purpose: PURPOSES[row.purpose],
    Name: row.name,
    Scheduled: row.scheduled === 1,
    Token: row.token ?? '',
    SentTimestampUtc: row.sent_at,
    ExpiresTimestampUtc: row.expires_at,
    ClientAddress: row.client_address,
    UserAgent: row.user_agent,
  }));
}

/**
 * Outside demo mode a code is kept in plain text only while a device may still need it: once its time is up it is
 * gone (codes used, replaced or reported are removed when that happens). Run now and then; answers how many went.
 */
export async function purgeExpiredCodes(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .updateTable('pushes')
    .set({ token: null })
    .where('token', 'is not', null)
    .where('token_issue_id', 'in', (eb) =>
      eb.selectFrom('token_issues').select('id').where('expires_at', '<=', formatTimestamp(now)),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
