import type { RestoreResult } from './restore.ts';

/** What `npm run restore` prints: where things are, and what the restore ended. */
export function restoreReport(file: string, result: RestoreResult): string {
  const lines = [`Restored ${file} into ${result.database}.`];
  if (result.previous) lines.push(`The database it replaced is kept as ${result.previous}.`);
  if (result.previousLog) {
    lines.push(
      `Its write-ahead log could not be folded into it (${result.previousLogProblem}); it is kept beside it as ` +
        `${result.previousLog}, where SQLite reads it when the kept file is opened.`,
    );
  }
  const { sessions, devices, enrollmentCodes } = result.ended;
  lines.push(
    `Ended ${sessions} session(s): everyone signs in again.`,
    `Ended ${devices} device(s): each phone enrols again (its person adds it again, and it is approved again).`,
    `Dropped ${enrollmentCodes} unused enrolment code(s).`,
    'Start the service: the restored database is already at the current schema.',
  );
  return `${lines.join('\n')}\n`;
}
