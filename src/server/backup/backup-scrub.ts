import SQLite from 'better-sqlite3';

/** What a backup copy leaves out, counted for the audit stream. */
export interface BackupScrubbed {
  /** Two-factor codes still waiting to be used (their hash; a six-digit code's hash is found by trying them all). */
  pendingCodes: number;
  /** Codes in plain text kept for a device's inbox. */
  inboxCodes: number;
  /** A VAPID private key kept in the database (one made before the key file existed, or on no file at all). */
  vapidPrivateKey: boolean;
}

/**
 * Takes out of a fresh backup copy what must not outlive the moment in a file kept for weeks: live two-factor codes
 * (a copy read by someone else within a code's minutes would sign as its person) and the Web Push signing key.
 * SQLite's secure_delete overwrites what is removed, so it is not left in free pages either. A code left out only
 * means an instruction restored from the copy needs a new code.
 */
export function scrubBackupCopy(file: string): BackupScrubbed {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    copy.pragma('secure_delete = ON');
    return copy.transaction(() => {
      const pending = copy
        .prepare('update instructions set token_hash = null where token_hash is not null')
        .run().changes;
      const inbox = copy.prepare('update pushes set token = null where token is not null').run().changes;
      const vapid = copy.prepare("delete from service_keys where name = 'vapid'").run().changes;
      return { pendingCodes: pending, inboxCodes: inbox, vapidPrivateKey: vapid > 0 };
    })();
  } finally {
    copy.close();
  }
}
