import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AccountService } from '../domain/accounts.ts';
import type { ChangeFeed } from '../domain/change-feed.ts';
import type { Clock } from '../domain/clock.ts';
import type { SessionService } from '../domain/sessions.ts';

/** What routes need from the rest of the service, passed in rather than reached for. */
export interface Services {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  sessions: SessionService;
  changes: ChangeFeed;
  accounts: AccountService;
}
