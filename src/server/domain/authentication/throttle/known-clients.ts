import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../../shared/contract/index.ts';
import type { Database } from '../../../db/schema.ts';
import { addMinutes, type Clock } from '../../../lib/clock.ts';

/**
 * How long an address stays known to an account after its last successful sign-in from there. Long enough to cover
 * a holiday, short enough that an address handed to someone else (a dynamic IP, a café) stops counting soon.
 */
export const KNOWN_CLIENT_DAYS = 30;

/** What the sign-in throttle asks and tells about known clients. */
export interface KnownClientStore {
  isKnown(userKey: string, client: string): Promise<boolean>;
  remember(userKey: string, client: string): Promise<void>;
}

/** Knows no one: every client answers to the user name's budgets too. */
export const NO_KNOWN_CLIENTS: KnownClientStore = {
  isKnown: async () => false,
  remember: async () => undefined,
};

/**
 * The client keys (client-key.ts) from which each account signed in successfully in the last KNOWN_CLIENT_DAYS. The
 * sign-in throttle spares them the user name's pace, so guessers elsewhere cannot lock the owner out. Kept in the
 * database, so every process on it and a restarted one agree.
 */
export class KnownClients implements KnownClientStore {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async isKnown(userKey: string, client: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('known_clients')
      .select('last_success_at')
      .where('user_key', '=', userKey)
      .where('client_key', '=', client)
      .executeTakeFirst();
    return row !== undefined && row.last_success_at > this.since();
  }

  async remember(userKey: string, client: string): Promise<void> {
    const at = formatTimestamp(this.clock());
    await this.db
      .insertInto('known_clients')
      .values({ user_key: userKey, client_key: client, last_success_at: at })
      .onConflict((oc) => oc.columns(['user_key', 'client_key']).doUpdateSet({ last_success_at: at }))
      .execute();
  }

  /** Deletes the clients no longer known: nothing reads them, and the table would otherwise keep every address. */
  async prune(): Promise<number> {
    const result = await this.db
      .deleteFrom('known_clients')
      .where('last_success_at', '<=', this.since())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private since(): string {
    return formatTimestamp(addMinutes(this.clock(), -KNOWN_CLIENT_DAYS * 24 * 60));
  }
}
