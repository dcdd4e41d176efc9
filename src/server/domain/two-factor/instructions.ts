import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  CODE_WINDOW_MINUTES,
  DEVICE_APP_PATH,
  formatTimestamp,
  type Instruction,
  type InstructionState,
  MAX_CODES_PER_WINDOW,
  MAX_TOKEN_ATTEMPTS,
  PushUserStatusCode,
  TOKEN_LIFETIME_MINUTES,
  type TokenAccepted,
} from '../../../shared/contract/index.ts';
import { dialectOf } from '../../db/database.ts';
import type { Database, InstructionTable } from '../../db/schema.ts';
import { addMinutes, type Clock, storedTime } from '../../lib/clock.ts';
import { notFound, ProblemError } from '../../lib/problem-error.ts';
import { type ChangePublisher, deviceSignal, writeAndPublish } from '../core/change-feed.ts';
import type { TokenPushMessage, TokenPushSender, TokenPushTarget } from '../delivery/token-delivery.ts';
import { devicesHoldingCodeOf, recordDeviceEvents } from '../devices/device-events.ts';
import type { Principal } from '../identity/principals.ts';
import { holdsValidTemporaryCode, matchTemporaryCode, spendTemporaryCode } from './temporary-codes.ts';

/**
 * Tokens one instruction may be issued, the first included. Each new token resets the wrong-token count, so without
 * a cap reissuing would give a guesser unlimited tries at a six-digit token.
 */
export const MAX_TOKENS_ISSUED = 5;

/** The longest User-Agent kept with a code: enough to tell browsers apart, bounded for a header anyone writes. */
const USER_AGENT_MAX = 512;

/** Where a code was asked for, shown with it in the device inbox so its person can tell whether it was them. */
export interface CodeRequest {
  clientAddress: string | null;
  userAgent: string | null;
}

/** How new codes reach devices; the same for the real endpoints and the demo actors. */
export interface TokenDelivery {
  /**
   * Demo mode: every push keeps its code in plain text, since a person plays the device and reads it there.
   * Otherwise a code is kept only for push users a device can read it on, and only while it works.
   */
  keepPlainTokens: boolean;
  /** Web Push; null when the service sends none (the inbox and the devices' live streams still deliver). */
  pushSender: TokenPushSender | null;
  changes: ChangePublisher;
}

export type InstructionRow = Selectable<InstructionTable>;

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

const notCreator = (scheduled: boolean, id: number, what: 'submit its token' | 'read it or ask for its codes') =>
  new ProblemError(
    403,
    'not-creator',
    'Not your instruction',
    // Naming the creator would tell any signed-in person who runs which instruction.
    `Only the person who created ${kindName(scheduled).toLowerCase()} ${id} may ${what}.`,
  );

/** What a new code set in motion, for after the commit: the Web Push targets and the devices to signal. */
export interface Issued {
  devicesNotified: number;
  /** What the person calls each device the code went to. */
  deviceNames: string[];
  expires: Date;
  targets: TokenPushTarget[];
  deviceIds: number[];
}

/**
 * Refuses a new code when the person has had MAX_CODES_PER_WINDOW in the last CODE_WINDOW_MINUTES: a flood of
 * prompts (push bombing) wears people into accepting one. Counted in the database, so every process sharing it
 * agrees; on PostgreSQL the person's row is locked first, so two requests at once cannot both take the last one.
 */
async function checkCodeCap(trx: Kysely<Database>, userKey: string, now: Date): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await trx.selectFrom('principals').select('id').where('user_key', '=', userKey).forUpdate().execute();
  }
  const recent = await trx
    .selectFrom('token_issues')
    .select('issued_at')
    .where('user_key', '=', userKey)
    .where('issued_at', '>', formatTimestamp(addMinutes(now, -CODE_WINDOW_MINUTES)))
    .orderBy('issued_at')
    .limit(MAX_CODES_PER_WINDOW)
    .execute();
  const oldest = recent[0];
  if (recent.length < MAX_CODES_PER_WINDOW || !oldest) return;
  const freeAt = addMinutes(storedTime(oldest.issued_at), CODE_WINDOW_MINUTES);
  const seconds = Math.max(1, Math.ceil((freeAt.getTime() - now.getTime()) / 1000));
  throw new ProblemError(
    429,
    'too-many-requests',
    'Too many codes',
    `At most ${MAX_CODES_PER_WINDOW} codes are sent to one person in ${CODE_WINDOW_MINUTES} minutes. ` +
      `Try again in ${seconds} seconds.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/**
 * The push users a person's codes go to: one per device, each Active one whose device (if it enrolled through the
 * device app) still stands. A device ended with its person disabled stays ended when they are enabled again, its push
 * user still Active.
 */
/**
 * The devices that may prove a step-up in a session: approved by someone other than their own person, at or before the
 * session's last proof. A phone the session enrolled and approved itself, or one approved since, proves nothing there.
 */
export interface StepUpDevices {
  person: string;
  approvedAtOrBefore: string;
}

export function activePushUsersOf(db: Kysely<Database>, userKey: string, enrolledOnly = false, stepUp?: StepUpDevices) {
  let query = db
    .selectFrom('push_message_users')
    .select(['id', 'manufacturer', 'model', 'device_type'])
    .where('user_key', '=', userKey)
    .where('status', '=', PushUserStatusCode.Active)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('devices')
            .select('devices.id')
            .whereRef('devices.push_message_user_id', '=', 'push_message_users.id')
            .where('devices.ended_at', 'is not', null),
        ),
      ),
    );
  // The dashboard's own sign-in codes go only to devices enrolled through the device app, never to a push user
  // registered some other way (the demo's simulated phones, the platform's own registrations).
  if (enrolledOnly) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('devices')
          .select('devices.id')
          .whereRef('devices.push_message_user_id', '=', 'push_message_users.id')
          .where('devices.ended_at', 'is', null),
      ),
    );
  }
  if (stepUp) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('devices')
          .innerJoin('authorization_requests', 'authorization_requests.id', 'devices.authorization_request_id')
          .select('devices.id')
          .whereRef('devices.push_message_user_id', '=', 'push_message_users.id')
          .where('devices.ended_at', 'is', null)
          .where('authorization_requests.decided_at', '<=', stepUp.approvedAtOrBefore)
          .where('authorization_requests.decided_by', '<>', stepUp.person),
      ),
    );
  }
  return query.orderBy('id').execute();
}

/** What a person calls a device: its model ("Pixel 9"), else its maker or its system. */
export function deviceNameOf(row: { manufacturer: string | null; model: string | null; device_type: string }): string {
  return row.model?.trim() || row.manufacturer?.trim() || row.device_type.trim() || 'a device';
}

/**
 * A fresh 6-digit code for an instruction: stored hashed, pushed to every Active device of its creator (each Active
 * push message user, one per device, and by Web Push to the enrolled devices among them that subscribed); the count
 * of them is the instruction's DevicesNotified. Refused with nothing
 * stored when the creator has no Active device or has had too many codes lately. Runs inside the caller's transaction.
 * It lasts TOKEN_LIFETIME_MINUTES, or less when `notAfter` (the end of what the code is bound to, such as a sign-in
 * ticket) comes first: a phone must never show time left on a code that can no longer be used.
 */
export interface TokenIssue {
  now: Date;
  instruction: Pick<InstructionRow, 'id' | 'scheduled' | 'created_by_key'> & { purpose?: InstructionRow['purpose'] };
  request: CodeRequest;
  /** Demo mode: the code is kept in plain text too, for the demo's devices. */
  keepPlainTokens: boolean;
  notAfter?: Date | undefined;
  stepUp?: StepUpDevices | undefined;
}

export async function issueToken(
  trx: Kysely<Database>,
  { now, instruction, request, keepPlainTokens, notAfter, stepUp }: TokenIssue,
): Promise<Issued> {
  const enrolledOnly = instruction.purpose !== undefined && instruction.purpose !== 'instruction';
  const pushUsers = await activePushUsersOf(trx, instruction.created_by_key, enrolledOnly, stepUp);
  if (
    pushUsers.length === 0 &&
    stepUp &&
    (await activePushUsersOf(trx, instruction.created_by_key, enrolledOnly)).length > 0
  ) {
    throw new ProblemError(
      409,
      'no-step-up-device',
      'No device can confirm this session',
      'None of your Active devices can confirm it is you in this session: a device counts only when someone else ' +
        'approved it before this session’s last proof. Use a passkey or a recovery code, or sign in again.',
    );
  }
  if (pushUsers.length === 0 && !enrolledOnly && (await temporaryCodeStandsIn(trx, instruction.created_by_key, now))) {
    // No phone, but a temporary code from the helpdesk: the instruction waits for that code instead of a pushed one.
    const expires = addMinutes(now, TOKEN_LIFETIME_MINUTES);
    await trx
      .updateTable('instructions')
      .set({
        token_hash: null,
        token_expires_at: formatTimestamp(expires),
        failed_attempts: 0,
        state: 'AwaitingTwoFactor',
      })
      .where('id', '=', instruction.id)
      .execute();
    return { devicesNotified: 0, deviceNames: [], expires, targets: [], deviceIds: [] };
  }
  if (pushUsers.length === 0) {
    throw new ProblemError(
      409,
      'no-active-device',
      'No active device',
      `Enrol a device at ${DEVICE_APP_PATH}, and have it approved: codes go to your Active devices.`,
    );
  }
  await checkCodeCap(trx, instruction.created_by_key, now);

  // The code before this one stops working: devices showing it are told, and outside demo mode it is forgotten.
  const holding = await devicesHoldingCodeOf(trx, instruction.id);
  await recordDeviceEvents(trx, holding, 'token-ended', instruction.id, formatTimestamp(now));
  if (!keepPlainTokens) await forgetCodes(trx, instruction.id);

  const token = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const lifetime = addMinutes(now, TOKEN_LIFETIME_MINUTES);
  const expires = notAfter && notAfter < lifetime ? notAfter : lifetime;
  await trx
    .updateTable('instructions')
    .set({
      token_hash: hashToken(token, randomBytes(8).toString('hex')),
      token_expires_at: formatTimestamp(expires),
      failed_attempts: 0,
      state: 'AwaitingTwoFactor',
    })
    .where('id', '=', instruction.id)
    .execute();
  const issue = await trx
    .insertInto('token_issues')
    .values({
      instruction_id: instruction.id,
      user_key: instruction.created_by_key,
      issued_at: formatTimestamp(now),
      expires_at: formatTimestamp(expires),
      client_address: request.clientAddress,
      user_agent: request.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      devices_notified: pushUsers.length,
      reported_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const pushUserIds = pushUsers.map((user) => user.id);
  const devices = await trx
    .selectFrom('devices')
    .select(['id', 'push_message_user_id', 'push_endpoint', 'push_p256dh', 'push_auth'])
    .where('push_message_user_id', 'in', pushUserIds)
    .where('ended_at', 'is', null)
    .execute();
  const readable = new Set(devices.map((device) => device.push_message_user_id));
  await trx
    .insertInto('pushes')
    .values(
      pushUserIds.map((id) => ({
        push_message_user_id: id,
        instruction_id: instruction.id,
        scheduled: instruction.scheduled,
        token: keepPlainTokens || readable.has(id) ? token : null,
        sent_at: formatTimestamp(now),
        token_issue_id: issue.id,
      })),
    )
    .execute();
  const deviceIds = devices.map((device) => device.id);
  await recordDeviceEvents(trx, deviceIds, 'token', instruction.id, formatTimestamp(now));
  const targets = devices.flatMap(({ id, push_endpoint, push_p256dh, push_auth }) =>
    push_endpoint && push_p256dh && push_auth
      ? [{ deviceId: id, subscription: { endpoint: push_endpoint, p256dh: push_p256dh, auth: push_auth } }]
      : [],
  );
  const deviceNames = pushUsers.map(deviceNameOf);
  return { devicesNotified: pushUsers.length, deviceNames, expires, targets, deviceIds };
}

/** Removes an instruction's codes from the inbox (outside demo mode: used, replaced or reported codes). */
export async function forgetCodes(trx: Kysely<Database>, instructionId: number): Promise<void> {
  await trx
    .updateTable('pushes')
    .set({ token: null })
    .where('instruction_id', '=', instructionId)
    .where('token', 'is not', null)
    .execute();
}

/** The devices' streams hear of a new code once it has committed. */
export const newCodeSignal = ({ issued }: { issued: Issued }) => deviceSignal(issued.deviceIds);

/** After the commit (which told the devices' streams of the new code): the Web Push requests start. */
export function deliver(
  delivery: TokenDelivery,
  row: Pick<InstructionRow, 'id' | 'name' | 'scheduled'> & { purpose?: InstructionRow['purpose'] },
  issued: Issued,
) {
  if (!delivery.pushSender || issued.targets.length === 0) return;
  const message: TokenPushMessage = {
    instructionId: row.id,
    ...(row.purpose && row.purpose !== 'instruction' ? { dashboard: true } : {}),
    name: row.name,
    scheduled: row.scheduled === 1,
    expires: issued.expires,
  };
  delivery.pushSender.send(issued.targets, message);
}

/** After the commit of a new code: deliver it, and answer with the instruction as it now stands. */
function deliverIssued(
  delivery: TokenDelivery,
  row: Pick<InstructionRow, 'id' | 'name' | 'scheduled'>,
  issued: Issued,
  now: Date,
): Instruction {
  deliver(delivery, row, issued);
  return toInstruction(
    { ...row, state: 'AwaitingTwoFactor', token_expires_at: formatTimestamp(issued.expires) },
    issued.devicesNotified,
    now,
  );
}

/** The state as of now: a code whose time is up makes the instruction Expired even before anyone tries it. */
function stateNow(row: Pick<InstructionRow, 'state' | 'token_expires_at'>, now: Date): InstructionState {
  if (row.state !== 'AwaitingTwoFactor') return row.state;
  return !row.token_expires_at || now >= storedTime(row.token_expires_at) ? 'Expired' : row.state;
}

function toInstruction(
  row: Pick<InstructionRow, 'id' | 'name' | 'scheduled' | 'state' | 'token_expires_at'>,
  devicesNotified: number,
  now: Date,
): Instruction {
  return {
    Id: row.id,
    Name: row.name,
    Scheduled: row.scheduled === 1,
    State: stateNow(row, now),
    TokenExpiresTimestampUtc: row.token_expires_at,
    DevicesNotified: devicesNotified,
  };
}

/** An instruction that needs two-factor authentication: created with its first code, or not at all. */
/** What issuing and judging codes works with: the database, the clock, and how codes reach devices. */
export interface CodeServices {
  db: Kysely<Database>;
  clock: Clock;
  delivery: TokenDelivery;
}

export async function createInstruction(
  { db, clock, delivery }: CodeServices,
  {
    creator,
    input,
    request,
  }: { creator: Principal; input: { name: string; scheduled: boolean }; request: CodeRequest },
): Promise<Instruction> {
  const now = clock();
  const { row, issued } = await writeAndPublish(
    db,
    delivery.changes,
    async (trx) => {
      const row = await trx
        .insertInto('instructions')
        .values({
          name: input.name,
          scheduled: input.scheduled ? 1 : 0,
          created_by: creator.userName,
          created_by_key: creator.userKey,
          state: 'AwaitingTwoFactor',
          token_hash: null,
          token_expires_at: null,
          failed_attempts: 0,
          created_at: formatTimestamp(now),
          authenticated_at: null,
        })
        .returning(['id', 'name', 'scheduled', 'created_by_key'])
        .executeTakeFirstOrThrow();
      const issued = await issueToken(trx, {
        now,
        instruction: row,
        request,
        keepPlainTokens: delivery.keepPlainTokens,
      });
      return { row, issued };
    },
    newCodeSignal,
  );
  return deliverIssued(delivery, row, issued, now);
}

/** The caller's own instruction as it stands now (403 for someone else's, 404 for none). */
export async function getInstruction(
  db: Kysely<Database>,
  clock: Clock,
  caller: Principal,
  id: number,
): Promise<Instruction> {
  const row = await db
    .selectFrom('instructions')
    .selectAll()
    .where('id', '=', id)
    .where('purpose', '=', 'instruction')
    .executeTakeFirst();
  if (!row) throw notFound('Instruction', id);
  if (row.created_by_key !== caller.userKey) throw notCreator(row.scheduled === 1, id, 'read it or ask for its codes');
  const latest = await db
    .selectFrom('token_issues')
    .select('devices_notified')
    .where('instruction_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return toInstruction(row, latest?.devices_notified ?? 0, clock());
}

/** The report of one of the instruction's codes as not asked for, if there is one: it then gets no more codes. */
export function reportOf(trx: Kysely<Database>, instructionId: number) {
  return trx
    .selectFrom('token_issues')
    .select('reported_at')
    .where('instruction_id', '=', instructionId)
    .where('reported_at', 'is not', null)
    .executeTakeFirst();
}

/** A further code for an instruction that already had one, counted against MAX_TOKENS_ISSUED. */
export async function issueAnotherToken(
  trx: Kysely<Database>,
  issue: TokenIssue & { instruction: InstructionRow },
): Promise<Issued> {
  const issued = await issueToken(trx, issue);
  await trx
    .updateTable('instructions')
    .set((eb) => ({ tokens_issued: eb('tokens_issued', '+', 1) }))
    .where('id', '=', issue.instruction.id)
    .execute();
  return issued;
}

/**
 * A new code for the caller's own instruction, after a lock or expiry. Capped per instruction (each new code resets
 * the wrong-code count) and refused once one of its codes was reported: someone else asked for it.
 */
export async function reissueToken(
  { db, clock, delivery }: CodeServices,
  { caller, id, request }: { caller: Principal; id: number; request: CodeRequest },
): Promise<Instruction> {
  const now = clock();
  const { row, issued } = await writeAndPublish(
    db,
    delivery.changes,
    async (trx) => {
      const row = await trx
        .selectFrom('instructions')
        .selectAll()
        .where('id', '=', id)
        .where('purpose', '=', 'instruction')
        .executeTakeFirst();
      if (!row) throw notFound('Instruction', id);
      if (row.created_by_key !== caller.userKey)
        throw notCreator(row.scheduled === 1, id, 'read it or ask for its codes');
      if (row.state === 'Authenticated') {
        throw new ProblemError(
          409,
          'already-authenticated',
          'Already authenticated',
          `Instruction ${id} is already authenticated.`,
        );
      }
      const reported = await reportOf(trx, id);
      if (reported) {
        throw new ProblemError(
          409,
          'instruction-reported',
          'Code reported',
          `A code of instruction ${id} was reported from a device as not asked for by its person at ${reported.reported_at} UTC: it gets no more codes. Create a new instruction.`,
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
      return {
        row,
        issued: await issueAnotherToken(trx, {
          now,
          instruction: row,
          request,
          keepPlainTokens: delivery.keepPlainTokens,
        }),
      };
    },
    newCodeSignal,
  );
  return deliverIssued(delivery, row, issued, now);
}

export type Outcome = { ok: TokenAccepted; deviceIds: number[]; temporaryCodeId?: number } | { problem: ProblemError };

/**
 * #2-#4: checks a two-factor token. Wrong tokens are counted in the same transaction,
 * so the lock after MAX_TOKEN_ATTEMPTS holds however many tries arrive at once.
 */
export async function submitToken({
  db,
  clock,
  delivery,
  caller,
  id,
  scheduled,
  token,
  clientAddress = null,
}: {
  db: Kysely<Database>;
  clock: Clock;
  delivery: TokenDelivery;
  caller: Principal;
  /** The instruction's Id, among the scheduled instructions or the others. */
  id: number;
  scheduled: boolean;
  token: string;
  /** Where the token came from: a temporary code's use records it. */
  clientAddress?: string | null;
}): Promise<{ accepted: TokenAccepted; temporaryCodeId: number | null }> {
  // A temporary code stands in for the pushed one: its hash is checked before the write begins (a pushed code is
  // six digits, so this costs nothing then), and its use is spent inside it.
  const matched = await matchTemporaryCode(db, clock, caller.id, token);
  const temporaryCode = matched === null ? undefined : { id: matched, clientAddress };
  // Failed attempts must commit, so the transaction returns its problem instead of throwing it.
  const outcome = await writeAndPublish(
    db,
    delivery.changes,
    async (trx): Promise<Outcome> => {
      const row = await trx
        .selectFrom('instructions')
        .selectAll()
        .where('id', '=', id)
        .where('scheduled', '=', scheduled ? 1 : 0)
        .where('purpose', '=', 'instruction')
        .executeTakeFirst();
      if (!row) return { problem: notFound(kindName(scheduled), id) };
      if (row.created_by_key !== caller.userKey) return { problem: notCreator(scheduled, id, 'submit its token') };
      return judgeToken(trx, { row, token, now: clock(), delivery, temporaryCode });
    },
    (outcome) => ('problem' in outcome ? [] : deviceSignal(outcome.deviceIds)),
  );
  if ('problem' in outcome) throw outcome.problem;
  return { accepted: outcome.ok, temporaryCodeId: outcome.temporaryCodeId ?? null };
}

/**
 * Judges a code typed for an instruction (or a sign-in's device code), inside the caller's transaction: wrong codes are
 * counted there, so the lock after MAX_TOKEN_ATTEMPTS holds however many tries arrive at once; a right one is used up.
 */
export async function judgeToken(
  trx: Kysely<Database>,
  {
    row,
    token,
    now,
    delivery,
    temporaryCode,
  }: {
    row: InstructionRow;
    token: string;
    now: Date;
    delivery: TokenDelivery;
    /** A temporary code typed in place of the pushed one (matched before the transaction), spent here. */
    temporaryCode?: { id: number; clientAddress: string | null } | undefined;
  },
): Promise<Outcome> {
  const { id } = row;
  const scheduled = row.scheduled === 1;
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
  // Whatever became of the pushed code, a valid temporary code of the creator authenticates the instruction.
  if (
    temporaryCode &&
    (await spendTemporaryCode(trx, temporaryCode.id, 'instruction', now, temporaryCode.clientAddress))
  ) {
    return { ...(await authenticated(trx, row, now, delivery)), temporaryCodeId: temporaryCode.id };
  }
  const waitsForTemporaryCode = !row.token_hash && row.state === 'AwaitingTwoFactor';
  if (
    row.state === 'Expired' ||
    (!row.token_hash && !waitsForTemporaryCode) ||
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
  if (!row.token_hash || !tokenMatches(token, row.token_hash)) {
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
  return authenticated(trx, row, now, delivery);
}

/** The instruction passed its second factor: its code is used up, and devices showing it are told. */
async function authenticated(
  trx: Kysely<Database>,
  row: InstructionRow,
  now: Date,
  delivery: TokenDelivery,
): Promise<Outcome> {
  const { id } = row;
  await trx
    .updateTable('instructions')
    .set({ state: 'Authenticated', token_hash: null, authenticated_at: formatTimestamp(now) })
    .where('id', '=', id)
    .execute();
  // Used: the code has done its work, so devices take it off their screens, and outside demo mode it is gone.
  const deviceIds = await devicesHoldingCodeOf(trx, id);
  await recordDeviceEvents(trx, deviceIds, 'token-ended', id, formatTimestamp(now));
  if (!delivery.keepPlainTokens) await forgetCodes(trx, id);
  return { ok: { Id: id, Authenticated: true, Successful: true }, deviceIds };
}

/** Whether the person of this user key holds a temporary code that works now. */
async function temporaryCodeStandsIn(trx: Kysely<Database>, userKey: string, now: Date): Promise<boolean> {
  const principal = await trx.selectFrom('principals').select('id').where('user_key', '=', userKey).executeTakeFirst();
  return principal !== undefined && (await holdsValidTemporaryCode(trx, principal.id, now));
}

function locked(scheduled: boolean, id: number): ProblemError {
  return new ProblemError(
    423,
    'instruction-locked',
    'Locked',
    `${kindName(scheduled)} ${id} is locked after ${MAX_TOKEN_ATTEMPTS} wrong tokens. Request a new token.`,
  );
}
