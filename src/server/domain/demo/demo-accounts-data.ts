import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Permission } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { upsertPrincipal, userKeyOf } from '../identity/principals.ts';

/**
 * More demo accounts, so the Accounts page shows a team rather than four people: nobody signs in with them (their
 * passwords are random and never shown), they are there to be looked at, changed and disabled. A few ACME people have
 * one too, with no permissions (an employee's account, which may sign in to enrol their phone and nothing else), so the
 * People page's "Enrol a device for them" can be tried without creating one first.
 */
export const EXTRA_DEMO_ACCOUNTS: ReadonlyArray<{
  userName: string;
  security: Permission[];
  accounts: Permission[];
  enabled: boolean;
}> = [
  { userName: 'DEMO\\accounts.admin', security: [], accounts: ['Read', 'Write'], enabled: true },
  { userName: 'DEMO\\night.shift', security: ['Read', 'Write'], accounts: [], enabled: true },
  { userName: 'DEMO\\reviewer', security: ['Read'], accounts: ['Read'], enabled: true },
  { userName: 'DEMO\\former.helpdesk', security: ['Read', 'Write'], accounts: [], enabled: false },
  { userName: 'ACME\\alice.ng', security: [], accounts: [], enabled: true },
  { userName: 'ACME\\dana.okafor', security: [], accounts: [], enabled: true },
  { userName: 'ACME\\hana.sato', security: [], accounts: [], enabled: true },
];

export async function seedExtraDemoAccounts(db: Kysely<Database>, clock: Clock, hashCost: number): Promise<void> {
  for (const account of EXTRA_DEMO_ACCOUNTS) {
    const userKey = userKeyOf(account.userName);
    // Created once: a demo visitor's changes to them stay until the data folder is removed.
    const existing = await db.selectFrom('principals').select('id').where('user_key', '=', userKey).executeTakeFirst();
    if (existing) continue;
    await upsertPrincipal(
      db,
      {
        userName: account.userName,
        password: randomBytes(24).toString('base64url'),
        grants: [
          ...account.security.map((permission) => ({ entity: 'Security', permission })),
          ...account.accounts.map((permission) => ({ entity: 'Accounts', permission })),
        ],
        now: clock(),
      },
      hashCost,
    );
    if (!account.enabled)
      await db.updateTable('principals').set({ enabled: 0 }).where('user_key', '=', userKey).execute();
  }
}
