import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * How a two-factor code leaves the service by Web Push. The domain decides who gets a code and when (after the
 * commit, Active devices with a subscription); the sender (push/web-push-sender.ts) only delivers.
 */
export interface PushSubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}
export interface TokenPushTarget {
  deviceId: number;
  subscription: PushSubscriptionKeys;
}
/**
 * What a push says of a new code: whose instruction, and until when. Never the code: it lives as a hash and in the
 * inbox rows its owner's devices read (devices/device-inbox.ts), never on the way to a push service.
 */
export interface TokenPushMessage {
  instructionId: number;
  /** Set for a code of the dashboard's own sign-in or step-up: the notification says so. */
  dashboard?: boolean;
  name: string;
  scheduled: boolean;
  expires: Date;
}
/**
 * A notice to a person's devices (device-notices.ts): a new device was enrolled for them, or approved; or a
 * temporary code was issued for them (who issued it and until when, never the code).
 */
export type DeviceNoticeMessage =
  | {
      kind: 'enrolled' | 'approved';
      authorizationRequestId: number;
      /** What the new device said it is, in words ("Samsung Galaxy S24, Android 15"). */
      device: string;
      /** When it happened; the push is worth delivering for a day after. */
      at: Date;
    }
  | { kind: 'temporary-code'; temporaryCodeId: number; issuedBy: string; validUntil: Date; at: Date };
export interface TokenPushSender {
  /** One push per target, started after the commit; never throws and never delays the caller. */
  send(targets: readonly TokenPushTarget[], message: TokenPushMessage): void;
  /** The same for a device notice; a sender without it pushes no notices (the inbox still lists them). */
  sendNotice?(targets: readonly TokenPushTarget[], notice: DeviceNoticeMessage): void;
  /** Drops retries still waiting and frees its connections, when the service stops. */
  close?(): void;
}

/**
 * Forgets a device's subscription after its push service said it is gone (404, 410), but only if the device still
 * has that endpoint: it may have subscribed again meanwhile, and the new subscription must stay.
 */
export async function removePushSubscription(db: Kysely<Database>, deviceId: number, endpoint: string): Promise<void> {
  await db
    .updateTable('devices')
    .set({ push_endpoint: null, push_p256dh: null, push_auth: null })
    .where('id', '=', deviceId)
    .where('push_endpoint', '=', endpoint)
    .execute();
}
