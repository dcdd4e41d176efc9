import fs from 'node:fs';
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

/** The key pair's file in DATA_DIR, beside the embedded database: readable by the service's user alone. */
export const VAPID_KEY_FILE_NAME = 'vapid-keys.json';

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
 * The key pair from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; else, with the embedded database, the key file in DATA_DIR
 * (`keyFile`: out of the database, so out of its backups), a pair the database held before moving there; else (on
 * PostgreSQL, where processes share it) the one kept in the database, or a new one stored there. Generated once, first
 * writer wins: processes starting together on one PostgreSQL all read the pair that was stored, so a subscription made
 * through one is signed for by every other.
 */
export async function loadVapidKeys(
  db: Kysely<Database>,
  config: VapidSettings,
  clock: Clock,
  keyFile: string | null = null,
): Promise<VapidKeys> {
  const subject = config.vapidSubject ?? (config.demo ? DEMO_VAPID_SUBJECT : null);
  const offReason =
    subject === null
      ? 'Web Push is off: VAPID_SUBJECT (a mailto: address or https: URL of the operator) is not set. ' +
        'Codes still reach the device app while it is open.'
      : null;
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey, subject, offReason };
  }
  if (keyFile !== null) return { ...(await keysFromFile(db, keyFile)), subject, offReason };
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

/** The pair in the key file: read, or moved there from the database, or made. The database keeps none afterwards. */
async function keysFromFile(db: Kysely<Database>, keyFile: string): Promise<{ publicKey: string; privateKey: string }> {
  let keys: { publicKey: string; privateKey: string };
  if (fs.existsSync(keyFile)) {
    keys = parsePair(fs.readFileSync(keyFile, 'utf8'), keyFile);
    fs.chmodSync(keyFile, 0o600);
  } else {
    const { publicKey, privateKey } = (await readStored(db)) ?? webPush.generateVAPIDKeys();
    keys = { publicKey, privateKey };
    // Written aside and renamed: a file at keyFile is always a whole pair.
    const partial = `${keyFile}.partial`;
    fs.writeFileSync(partial, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, keyFile);
  }
  await db.deleteFrom('service_keys').where('name', '=', STORED_KEY_NAME).execute();
  return keys;
}

function parsePair(text: string, where: string): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = JSON.parse(text) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof publicKey !== 'string' || typeof privateKey !== 'string') {
    throw new Error(`the VAPID key pair in ${where} is malformed`);
  }
  return { publicKey, privateKey };
}

async function readStored(db: Kysely<Database>): Promise<{ publicKey: string; privateKey: string } | null> {
  const row = await db
    .selectFrom('service_keys')
    .select('value')
    .where('name', '=', STORED_KEY_NAME)
    .executeTakeFirst();
  if (!row) return null;
  return parsePair(row.value, 'the database');
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
