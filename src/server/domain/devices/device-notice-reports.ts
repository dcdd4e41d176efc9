import type { Kysely } from 'kysely';
import { formatTimestamp, PushUserStatusCode } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/problem-error.ts';
import { changePushMessageUserStatus, pushUserChanged } from '../consumer/push-users.ts';
import { type ChangePublisher, type FeedEvent, writeAndPublish } from '../core/change-feed.ts';
import { describeDevice } from '../delivery/device-notices.ts';
import { recordAccountHistory } from '../identity/account-history.ts';
import { revokeSessionsOf } from '../identity/session-revocation.ts';
import type { AuthenticatedDevice } from './devices.ts';
import { ENROLMENTS_ENDED, endPendingEnrolments } from './pending-enrolments.ts';

/**
 * "This wasn't me" about a new device: one of the person's devices was told of a device enrolled or approved for
 * them, and they did not enrol it, so someone else knows their password. That device is rejected (still waiting:
 * with the person's other enrolments under way, see endPendingEnrolments) or Deleted (approved: its credential ends
 * and it receives nothing more), every session of the person ends, and the account's history and the audit stream
 * keep the report. All of it is one transaction: a failure or crash part-way leaves the report unmade and the device
 * as it was, so that reporting again finishes the job, never a report on record beside a device still alive. Reporting
 * a notice twice changes nothing more. Live events go out, and `forgetSessions` drops the sessions this process
 * remembers, once it has committed.
 */
export async function reportDeviceNotice({
  db,
  clock,
  changes,
  forgetSessions,
  device,
  noticeId,
}: {
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangePublisher;
  /** Forgets the sessions of the account this report ended, in every process. */
  forgetSessions: (principalId: number) => void;
  device: AuthenticatedDevice;
  noticeId: number;
}): Promise<{ authorizationRequestId: number }> {
  const reported = await writeAndPublish(
    db,
    changes,
    async (trx) => {
      const notice = await trx
        .selectFrom('device_notices')
        .innerJoin('authorization_requests', 'authorization_requests.id', 'device_notices.authorization_request_id')
        .select([
          'device_notices.reported_at',
          'device_notices.authorization_request_id',
          'authorization_requests.status',
          'authorization_requests.created_at',
          'authorization_requests.device_type',
          'authorization_requests.manufacturer',
          'authorization_requests.model',
          'authorization_requests.os_version',
        ])
        .where('device_notices.id', '=', noticeId)
        // Only a notice this device was given: the Id says nothing of anyone else's.
        .where('device_notices.device_id', '=', device.id)
        .executeTakeFirst();
      // A temporary code's notice names no device to report (its inner join finds no enrolment): not found here.
      if (!notice || notice.authorization_request_id === null) throw notFound('A notice of this device', noticeId);
      const requestId = notice.authorization_request_id;
      if (notice.reported_at !== null) return { requestId, events: [] as FeedEvent[] };
      const now = clock();
      await trx
        .updateTable('device_notices')
        .set({ reported_at: formatTimestamp(now) })
        .where('id', '=', noticeId)
        .execute();
      await revokeSessionsOf(trx, device.principalId, now);
      const ended = await endPendingEnrolments(
        trx,
        device.principalId,
        ENROLMENTS_ENDED.deviceReported,
        device.userName,
        now,
      );
      // Approved already: the push user it is goes Deleted, through the change an administrator makes (history,
      // its credential ended, the dashboard's and its own stream's live events), in this same transaction.
      const approved = await trx
        .selectFrom('devices')
        .innerJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
        .select('push_message_users.id')
        .where('devices.authorization_request_id', '=', requestId)
        .where('push_message_users.status', '!=', PushUserStatusCode.Deleted)
        .execute();
      const deleted: FeedEvent[] = [];
      for (const { id } of approved) {
        const user = await changePushMessageUserStatus(trx, {
          clock,
          id,
          status: PushUserStatusCode.Deleted,
          changedBy: device.userName,
        });
        deleted.push(pushUserChanged(user, device.userName));
      }
      await recordAccountHistory(trx, {
        principalId: device.principalId,
        userName: device.userName,
        action: 'DeviceReported',
        detail:
          `Request ${requestId}, ${describeDevice(notice)}, enrolled at ${notice.created_at} UTC: ` +
          `${notice.status === 'Authorized' ? 'removed' : 'rejected'}; all sessions ended`,
        changedBy: device.userName,
        at: now,
      });
      return { requestId, events: [...ended, ...deleted] };
    },
    ({ events }) => events,
  );
  forgetSessions(device.principalId);
  return { authorizationRequestId: reported.requestId };
}
