import type { Kysely } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/**
 * Device codes for the dashboard's own sign-in: a second step after the password, or a step-up, is an instruction of
 * its own purpose, so it rides the instruction-code machinery (the cap, the inbox, Web Push, "This wasn't me"). It is
 * bound to the one password step (its ticket) or the one session that asked for it, and the Consumer API's
 * instruction endpoints never see it.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // 'instruction' (the Consumer API's), 'sign-in' or 'step-up'.
  await db.schema
    .alterTable('instructions')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('instruction'))
    .execute();
  // What a sign-in or step-up code proves for: the ticket's or the session's hash; null for instructions.
  await db.schema.alterTable('instructions').addColumn('proof_for', 'text').execute();
  await db.schema.createIndex('instructions_proof_for').on('instructions').column('proof_for').execute();
}
