/**
 * The pg_dump command that backs up a PostgreSQL database, built from DATABASE_URL without its password: pg_dump reads
 * that from PGPASSWORD or ~/.pgpass, so the command can be shown and logged.
 */
export function pgDumpCommand(databaseUrl: string, fileName: string): string {
  const options = ['--format=custom', `--file=${quote(fileName)}`];
  const url = URL.parse(databaseUrl);
  if (url && (url.protocol === 'postgres:' || url.protocol === 'postgresql:')) {
    url.password = '';
    url.searchParams.delete('password');
    return ['pg_dump', ...options, `--dbname=${quote(url.href)}`].join(' ');
  }
  // A key=value connection string: every pair but the password.
  const pairs = databaseUrl
    .trim()
    .split(/\s+/)
    .filter((pair) => !/^password\s*=/i.test(pair));
  return ['pg_dump', ...options, `--dbname=${quote(pairs.join(' '))}`].join(' ');
}

/** A POSIX shell word that means exactly `text`. */
function quote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
