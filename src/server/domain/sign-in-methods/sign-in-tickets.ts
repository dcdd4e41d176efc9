import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { addMinutes } from '../../lib/clock.ts';

/** A password step's ticket lasts this long: time to reach for a phone or a passkey, not to walk away. */
export const TICKET_MINUTES = 5;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** What a device code sent for this ticket is bound to: the ticket's hash, never the ticket. */
export const ticketProof = (ticket: string) => `ticket:${hashTicket(ticket)}`;

/** A new ticket for the second step of this person's sign-in. */
export async function issueTicket(
  db: Kysely<Database>,
  principalId: number,
  now: Date,
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
    })
    .execute();
  return { ticket, expires };
}

/** The person a ticket is for while it is unused and unexpired; null otherwise. A wrong second step keeps it. */
export async function ticketHolder(db: Kysely<Database>, ticket: string, now: Date): Promise<number | null> {
  const row = await db
    .selectFrom('sign_in_tickets')
    .select('principal_id')
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('used_at', 'is', null)
    .where('expires_at', '>', formatTimestamp(now))
    .executeTakeFirst();
  return row?.principal_id ?? null;
}

/** Uses a ticket up; false when another request used it first. */
export async function spendTicket(db: Kysely<Database>, ticket: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_tickets')
    .set({ used_at: formatTimestamp(now) })
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Tickets past their time. */
export async function purgeTickets(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('sign_in_tickets').where('expires_at', '<=', formatTimestamp(now)).execute();
}
