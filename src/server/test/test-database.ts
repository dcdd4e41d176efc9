import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throwaway PostgreSQL database for one test app: created through an admin connection to the
 * server TEST_DATABASE_URL names, dropped (with its connections) when the app closes.
 */
export interface TestDatabase {
  /** Connection string of the fresh database. */
  url: string;
  drop(): Promise<void>;
}

/** The PostgreSQL server the HTTP tests run against, or null for the in-memory SQLite default. */
export function testDatabaseServer(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.TEST_DATABASE_URL?.trim() || null;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  // Lower-case letters and digits only: a valid identifier needing no quoting rules beyond the quotes.
  const name = `tachyon_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, async (client) => {
        // pg's Pool.end() resolves before its connections have finished closing; terminating one of those
        // would surface as an unhandled error in the test run, so wait (briefly) for them to go.
        for (let waited = 0; waited < 2000; waited += 20) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // FORCE (PostgreSQL 13+) ends any connection a test really left open rather than failing the drop.
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}
