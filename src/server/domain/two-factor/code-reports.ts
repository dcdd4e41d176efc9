import type { Kysely } from 'kysely';
import { formatTimestamp, type ReportedCode } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/problem-error.ts';
import { type ChangePublisher, deviceSignal, type FeedEvent, writeAndPublish } from '../core/change-feed.ts';
import { devicesHoldingCodeOf, recordDeviceEvents } from '../devices/device-events.ts';
import type { AuthenticatedDevice } from '../devices/devices.ts';
import { ENROLMENTS_ENDED, endPendingEnrolments } from '../devices/pending-enrolments.ts';
import { recordAccountHistory } from '../identity/account-history.ts';
import { revokeSessionsOf } from '../identity/session-revocation.ts';
import { forgetCodes } from './instructions.ts';

/** Reported codes answered at once: the overview shows the recent ones. */
const REPORTS_LIMIT = 100;

/**
 * "This wasn't me": a code reached the person's device that they did not ask for, so someone else knows their
 * password. The code stops working at once, and so does every other code still waiting for the person (whoever asked
 * for one may have asked for those too; the person asks again once signed in), every session of the person ends,
 * their enrolments still under way end (endPendingEnrolments), and the report is kept (with where the code was asked
 * for) for the account administrators. Devices showing an ended code hear `token-ended`. Reporting a code twice
 * changes nothing more. `forgetSessions` drops the sessions this process remembers, once the revocation has committed.
 */
export async function reportCode({
  db,
  clock,
  changes,
  forgetSessions,
  device,
  instructionId,
}: {
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangePublisher;
  /** Forgets the sessions of the account this report ended, in every process. */
  forgetSessions: (principalId: number) => void;
  device: AuthenticatedDevice;
  instructionId: number;
}): Promise<void> {
  await writeAndPublish(
    db,
    changes,
    async (trx) => {
      // The latest code of that instruction pushed to the push user this device is: the one on its screen.
      const issue = await trx
        .selectFrom('token_issues')
        .innerJoin('pushes', 'pushes.token_issue_id', 'token_issues.id')
        .innerJoin('instructions', 'instructions.id', 'token_issues.instruction_id')
        .select([
          'token_issues.id',
          'token_issues.reported_at',
          'token_issues.issued_at',
          'token_issues.client_address',
          'token_issues.user_agent',
          'token_issues.user_key',
          'instructions.name',
          'instructions.state',
        ])
        .where('token_issues.instruction_id', '=', instructionId)
        .where('pushes.push_message_user_id', '=', device.pushMessageUserId ?? 0)
        .orderBy('token_issues.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      // Nothing of it reached this device: the Id says nothing about anyone else's instructions.
      if (!issue) throw notFound('A code of instruction', instructionId);
      if (issue.reported_at !== null) return { deviceIds: [], events: [] as FeedEvent[] };
      const now = clock();
      const stamp = formatTimestamp(now);
      await trx.updateTable('token_issues').set({ reported_at: stamp }).where('id', '=', issue.id).execute();
      // An instruction already authenticated stays so (it ran); one waiting loses its code, as do the person's others.
      const othersWaiting = await trx
        .selectFrom('instructions')
        .select('id')
        .where('created_by_key', '=', issue.user_key)
        .where('state', '=', 'AwaitingTwoFactor')
        .where('id', '!=', instructionId)
        .execute();
      const ended = [instructionId, ...othersWaiting.map((row) => row.id)];
      await trx
        .updateTable('instructions')
        .set({ state: 'Expired', token_hash: null })
        .where('id', 'in', ended)
        .where('state', '!=', 'Authenticated')
        .execute();
      for (const id of ended) await forgetCodes(trx, id);
      await revokeSessionsOf(trx, device.principalId, now);
      // A password step waiting for its second step ends too: whoever is at it knows the password.
      await trx.deleteFrom('sign_in_tickets').where('principal_id', '=', device.principalId).execute();
      const events = await endPendingEnrolments(
        trx,
        device.principalId,
        ENROLMENTS_ENDED.reported,
        device.userName,
        now,
      );
      await recordAccountHistory(trx, {
        principalId: device.principalId,
        userName: device.userName,
        action: 'CodeReported',
        detail:
          `Instruction ${instructionId} (${issue.name || 'unnamed'}): a code asked for at ${issue.issued_at} UTC` +
          `${issue.user_agent ? ` by ${issue.user_agent}` : ''}; all sessions ended` +
          (othersWaiting.length > 0
            ? `, and ${othersWaiting.length} other waiting code${othersWaiting.length === 1 ? '' : 's'} ended`
            : ''),
        // Where the code was asked for: the address the report is about.
        clientAddress: issue.client_address,
        changedBy: device.userName,
        at: now,
      });
      const told = new Set<number>();
      for (const id of ended) {
        const holding = await devicesHoldingCodeOf(trx, id);
        await recordDeviceEvents(trx, holding, 'token-ended', id, stamp);
        for (const device of holding) told.add(device);
      }
      return { deviceIds: [...told], events };
    },
    ({ deviceIds, events }) => [...events, ...deviceSignal(deviceIds)],
  );
  forgetSessions(device.principalId);
}

/** Reported codes, newest first, for account administrators. */
export async function listReportedCodes(db: Kysely<Database>): Promise<ReportedCode[]> {
  const rows = await db
    .selectFrom('token_issues')
    .innerJoin('instructions', 'instructions.id', 'token_issues.instruction_id')
    .leftJoin('principals', 'principals.user_key', 'token_issues.user_key')
    .select([
      'token_issues.id',
      'token_issues.instruction_id',
      'token_issues.issued_at',
      'token_issues.client_address',
      'token_issues.user_agent',
      'token_issues.reported_at',
      'token_issues.handled_at',
      'token_issues.handled_by',
      'instructions.name',
      'instructions.scheduled',
      'instructions.created_by',
      'principals.id as principal_id',
    ])
    .where('token_issues.reported_at', 'is not', null)
    .orderBy('token_issues.reported_at', 'desc')
    .orderBy('token_issues.id', 'desc')
    .limit(REPORTS_LIMIT)
    .execute();
  return rows.map((row) => ({
    Id: row.id,
    AccountId: row.principal_id ?? null,
    UserName: row.created_by,
    InstructionId: row.instruction_id,
    InstructionName: row.name,
    Scheduled: row.scheduled === 1,
    RequestedTimestampUtc: row.issued_at,
    ClientAddress: row.client_address,
    UserAgent: row.user_agent,
    ReportedTimestampUtc: row.reported_at ?? row.issued_at,
    HandledBy: row.handled_by,
    HandledTimestampUtc: row.handled_at,
  }));
}
