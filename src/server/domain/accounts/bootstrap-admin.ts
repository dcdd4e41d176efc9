import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordAccountHistory } from '../identity/account-history.ts';
import { verifyPassword } from '../identity/passwords.ts';
import { upsertPrincipal, userKeyOf } from '../identity/principals.ts';
import { revokeSessionsOf } from '../identity/session-revocation.ts';

export interface BootstrapAdminSettings {
  userName: string;
  password: string;
  /** ADMIN_FORCE_ENABLE: enable the account even when an administrator disabled it. */
  forceEnable: boolean;
}

/**
 * Whether the account can sign in after the start: `disabled` when an administrator disabled it and nothing
 * forced it back (the caller warns), `re-enabled` when ADMIN_FORCE_ENABLE did.
 */
export type BootstrapAdminState = 'enabled' | 'disabled' | 're-enabled';

/**
 * The ADMIN_USERNAME account, set to ADMIN_PASSWORD with Security and Accounts Read+Write at every start (the
 * break-glass account). When ADMIN_PASSWORD changed since the last start, the sessions opened with the old one end:
 * changing it is how an operator locks out whoever learnt it. A disabled account stays disabled unless
 * ADMIN_FORCE_ENABLE is on: an administrator's "Disable" must outlast the next deploy.
 */
export async function bootstrapAdmin(
  db: Kysely<Database>,
  clock: Clock,
  { userName, password, forceEnable }: BootstrapAdminSettings,
  hashCost: number,
): Promise<BootstrapAdminState> {
  const existing = await db
    .selectFrom('principals')
    .select(['id', 'password_hash', 'enabled'])
    .where('user_key', '=', userKeyOf(userName))
    .executeTakeFirst();
  const changed = existing !== undefined && !(await verifyPassword(password, existing.password_hash));
  await upsertPrincipal(
    db,
    {
      userName,
      password,
      grants: [
        { entity: 'Security', permission: 'Read' },
        { entity: 'Security', permission: 'Write' },
        { entity: 'Accounts', permission: 'Read' },
        { entity: 'Accounts', permission: 'Write' },
      ],
      keepEnabled: true,
      now: clock(),
    },
    hashCost,
  );
  if (!existing) {
    await db
      .updateTable('principals')
      .set({ created_at: formatTimestamp(clock()) })
      .where('user_key', '=', userKeyOf(userName))
      .execute();
  }
  if (changed) {
    await writeTransaction(db, async (trx) => {
      const now = clock();
      await revokeSessionsOf(trx, existing.id, now);
      await recordAccountHistory(trx, {
        principalId: existing.id,
        userName,
        action: 'PasswordChanged',
        detail: 'ADMIN_PASSWORD changed at start-up; all sessions ended',
        changedBy: 'ADMIN_PASSWORD',
        at: now,
      });
    });
  }
  if (!existing || existing.enabled === 1) return 'enabled';
  if (!forceEnable) return 'disabled';
  await writeTransaction(db, async (trx) => {
    await trx.updateTable('principals').set({ enabled: 1 }).where('id', '=', existing.id).execute();
    await recordAccountHistory(trx, {
      principalId: existing.id,
      userName,
      action: 'Enabled',
      detail: 'ADMIN_FORCE_ENABLE=on at start-up',
      changedBy: 'ADMIN_FORCE_ENABLE',
      at: clock(),
    });
  });
  return 're-enabled';
}
