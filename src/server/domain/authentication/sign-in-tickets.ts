import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { addMinutes, storedTime } from '../../lib/clock.ts';

/** A password step's ticket lasts this long: time to reach for a phone or a passkey, not to walk away. */
export const TICKET_MINUTES = 5;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** What a ticket carries from the first factor to the session its second step opens. */
export interface TicketCarries {
  /** The identity provider's ID token when the first factor was single sign-on (its sign-out's id_token_hint). */
  oidcIdToken: string | null;
  /** The permissions a directory or provider sign-in brings, written when the session opens (JSON). */
  pendingGrants?: string | null;
}

/** What a device code sent for this ticket is bound to: the ticket's hash, never the ticket. */
export const ticketProof = (ticket: string) => `ticket:${hashTicket(ticket)}`;

/** A new ticket for the second step of this person's sign-in. */
export async function issueTicket(
  db: Kysely<Database>,
  principalId: number,
  now: Date,
  carries: TicketCarries = { oidcIdToken: null },
): Promise<{ ticket: string; expires: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const expires = addMinutes(now, TICKET_MINUTES);
  await db
    .insertInto('sign_in_tickets')
    .values({
      ticket_hash: hashTicket(ticket),
      principal_id: principalId,
      created_at: formatTimestamp(now),
      expires_at: formatTimestamp(expires),
      used_at: null,
      oidc_id_token: carries.oidcIdToken,
      pending_grants: carries.pendingGrants ?? null,
    })
    .execute();
  return { ticket, expires };
}

/** An unused, unexpired ticket: whose it is and when it ends; null otherwise. A wrong second step keeps it. */
export async function liveTicket(
  db: Kysely<Database>,
  ticket: string,
  now: Date,
): Promise<{ principalId: number; expires: Date } | null> {
  const row = await db
    .selectFrom('sign_in_tickets')
    .select(['principal_id', 'expires_at'])
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('used_at', 'is', null)
    .where('expires_at', '>', formatTimestamp(now))
    .executeTakeFirst();
  return row ? { principalId: row.principal_id, expires: storedTime(row.expires_at) } : null;
}

/** The person a ticket is for while it is unused and unexpired; null otherwise. */
export async function ticketHolder(db: Kysely<Database>, ticket: string, now: Date): Promise<number | null> {
  return (await liveTicket(db, ticket, now))?.principalId ?? null;
}

/**
 * Uses a ticket up: what it carries for the session the second step opens, or null when another request used it
 * first. The ID token leaves the row as it is spent: only the session keeps it.
 */
export async function spendTicket(db: Kysely<Database>, ticket: string, now: Date): Promise<TicketCarries | null> {
  const ticketHash = hashTicket(ticket);
  const row = await db
    .selectFrom('sign_in_tickets')
    .select(['oidc_id_token', 'pending_grants'])
    .where('ticket_hash', '=', ticketHash)
    .executeTakeFirst();
  const result = await db
    .updateTable('sign_in_tickets')
    .set({ used_at: formatTimestamp(now), oidc_id_token: null, pending_grants: null })
    .where('ticket_hash', '=', ticketHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 && row
    ? { oidcIdToken: row.oidc_id_token, pendingGrants: row.pending_grants }
    : null;
}

/** Tickets past their time. */
export async function purgeTickets(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('sign_in_tickets').where('expires_at', '<=', formatTimestamp(now)).execute();
}
