import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_FILE_PATTERN } from './backup-name.ts';
import type { BackupService } from './backup-service.ts';

export interface BackupScheduleOptions {
  folder: string;
  intervalMs: number;
  keep: number;
  /** Where a failed backup is reported (the service log). */
  onError: (error: unknown) => void;
}

/**
 * Takes a backup into BACKUP_DIR every interval and keeps the newest `keep` of them. The timer never holds the process
 * open; `stop` ends it (at close).
 */
export function startBackupSchedule(backups: BackupService, options: BackupScheduleOptions): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    // A backup slower than the interval is not overlapped by the next one.
    if (running) return;
    running = true;
    backups
      .takeInto(options.folder, { kind: 'schedule' })
      .then(() => pruneBackups(options.folder, options.keep))
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Deletes all but the newest `keep` backups in the folder; other files there are left alone. Returns the deleted names. */
export function pruneBackups(folder: string, keep: number): string[] {
  const ours = fs
    .readdirSync(folder)
    .filter((name) => BACKUP_FILE_PATTERN.test(name))
    .sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of old) fs.rmSync(path.join(folder, name), { force: true });
  return old;
}
