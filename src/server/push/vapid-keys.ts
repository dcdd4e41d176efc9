import type { Kysely } from 'kysely';
import webPush from 'web-push';
import { formatTimestamp, type PushKey } from '../../shared/contract/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * The subject demo mode signs with when VAPID_SUBJECT is unset. Push services never write to it, but Apple's
 * refuses localhost subjects, so it is a syntactically real address in a domain reserved for examples (RFC 2606).
 */
export const DEMO_VAPID_SUBJECT = 'mailto:webpush-demo@example.com';

const STORED_KEY_NAME = 'vapid';

/** The service's VAPID identity (RFC 8292) and whether Web Push is on. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Null while Web Push is off. */
  subject: string | null;
  /** Why Web Push is off, in words for the start-up log and the device app; null when it is on. */
  offReason: string | null;
}

/** The settings the key pair comes from (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT, DEMO). */
export interface VapidSettings {
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  vapidSubject: string | null;
  demo: boolean;
}

/**
 * The key pair from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else the one kept in the database, else a new one stored
 * there. Generated once, first writer wins: processes starting together on one PostgreSQL all read the pair that
 * was stored, so a subscription made through one is signed for by every other.
 */
export async function loadVapidKeys(db: Kysely<Database>, config: VapidSettings, clock: Clock): Promise<VapidKeys> {
  const subject = config.vapidSubject ?? (config.demo ? DEMO_VAPID_SUBJECT : null);
  const offReason =
    subject === null
      ? 'Web Push is off: VAPID_SUBJECT (a mailto: address or https: URL of the operator) is not set. ' +
        'Codes still reach the device app while it is open.'
      : null;
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey, subject, offReason };
  }
  const stored = await readStored(db);
  if (stored) return { ...stored, subject, offReason };
  const generated = webPush.generateVAPIDKeys();
  await db
    .insertInto('service_keys')
    .values({ name: STORED_KEY_NAME, value: JSON.stringify(generated), created_at: formatTimestamp(clock()) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const winner = await readStored(db);
  if (!winner) throw new Error('the VAPID key pair was stored but cannot be read back');
  return { ...winner, subject, offReason };
}

async function readStored(db: Kysely<Database>): Promise<{ publicKey: string; privateKey: string } | null> {
  const row = await db
    .selectFrom('service_keys')
    .select('value')
    .where('name', '=', STORED_KEY_NAME)
    .executeTakeFirst();
  if (!row) return null;
  const { publicKey, privateKey } = JSON.parse(row.value) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof publicKey !== 'string' || typeof privateKey !== 'string') {
    throw new Error('the stored VAPID key pair is malformed');
  }
  return { publicKey, privateKey };
}

/** What the device app is told: the public key, and whether pushes will come (a subject, and a sender to send). */
export function pushKeyOf(keys: VapidKeys, sending: boolean): PushKey {
  if (keys.offReason) return { PublicKey: keys.publicKey, WebPushEnabled: false, Reason: keys.offReason };
  return sending
    ? { PublicKey: keys.publicKey, WebPushEnabled: true, Reason: null }
    : {
        PublicKey: keys.publicKey,
        WebPushEnabled: false,
        Reason:
          'Web Push is off: this service process has no push sender. Codes still reach the device app while it is open.',
      };
}
