/** How backup files are named: `tachyon-YYYY-MM-DDTHHMMSSZ.sqlite3`, which sorts by time. */
export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '');
  return `tachyon-${stamp}.sqlite3`;
}

/** Only files of exactly this naming are the service's own backups (the schedule deletes no other file). */
export const BACKUP_FILE_PATTERN = /^tachyon-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite3$/;
