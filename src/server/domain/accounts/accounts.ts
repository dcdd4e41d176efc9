import type { Kysely } from 'kysely';
import {
  type Account,
  type AccountCreation,
  type AccountHistoryAction,
  type AccountHistoryEntry,
  type AccountPermissions,
  formatTimestamp,
  type Permission,
} from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { inDirectoryDomain } from '../../directory-config.ts';
import { addMinutes, type Clock } from '../core/clock.ts';
import { OneAtATime } from '../core/one-at-a-time.ts';
import { notFound, ProblemError } from '../core/problem-error.ts';
import { endDevicesWhere } from '../devices/device-credentials.ts';
import type { LoginThrottle } from '../sign-in/login-throttle.ts';
import type { SignInContext } from '../sign-in/sign-in.ts';
import { passwordWeakness } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { type Principal, userKeyOf } from './principals.ts';

/** Recent account history answered at once: enough for a screen, bounded for a table an attacker can grow. */
const HISTORY_LIMIT = 200;

/** How the interface names where an account comes from. */
const ACCOUNT_SOURCE = { local: 'Local', directory: 'Directory', oidc: 'Oidc' } as const;

export interface AccountHistoryRecord {
  principalId: number | null;
  userName: string;
  action: AccountHistoryAction;
  detail?: string | null;
  clientAddress?: string | null;
  consumer?: string | null;
  changedBy?: string | null;
  at: Date;
}

/** Records a sign-in or account change; inside the change's transaction when there is one. Never a password. */
export async function recordAccountHistory(db: Kysely<Database>, record: AccountHistoryRecord): Promise<void> {
  await db
    .insertInto('account_history')
    .values({
      principal_id: record.principalId,
      user_name: record.userName.slice(0, 256),
      action: record.action,
      detail: record.detail ?? null,
      client_address: record.clientAddress ?? null,
      consumer: record.consumer?.slice(0, 100) ?? null,
      changed_by: record.changedBy ?? null,
      changed_at: formatTimestamp(record.at),
    })
    .execute();
}

/** The password-policy failure as the validation problem the contract's own checks give. */
export function weakPassword(path: string, password: string): ProblemError | null {
  const weakness = passwordWeakness(password);
  if (!weakness) return null;
  return new ProblemError(400, 'validation', 'Invalid request', `${path} ${weakness}.`, {
    extensions: { errors: [{ path, message: weakness }] },
  });
}

/** Ends every session of an account (inside the caller's transaction). The caller forgets them in memory after. */
export async function revokeSessionsOf(
  trx: Kysely<Database>,
  principalId: number,
  at: Date,
  exceptTokenHash: string | null = null,
): Promise<void> {
  let update = trx
    .updateTable('sessions')
    .set({ revoked_at: formatTimestamp(at) })
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null);
  if (exceptTokenHash) update = update.where('token_hash', '!=', exceptTokenHash);
  await update.execute();
}

const permissionsText = (permissions: AccountPermissions) =>
  (['Security', 'Accounts'] as const)
    .map((entity) => `${entity}: ${permissions[entity].length > 0 ? permissions[entity].join('+') : 'none'}`)
    .join(', ');

const sortPermissions = (list: readonly Permission[]): Permission[] =>
  (['Read', 'Write'] as const).filter((permission) => list.includes(permission));

export class AccountService {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly options: {
    hashCost: number;
    idleMinutes: number;
    /** The directory's domain: local accounts may not take names there (the directory owns them). */
    directoryDomain: string | null;
    /** Demo mode: accounts created now are marked, and retired at the next start with demo mode off. */
    demo: boolean;
    /**
     * Called after sessions of an account ended, it was disabled, or its password or permissions changed: remembered
     * sessions must be re-read and live streams re-checked, in every process.
     */
    forget: (principalId: number) => void;
    /** The sign-in throttle: a wrong current password in a password change is a failed sign-in. */
    throttle: Pick<LoginThrottle, 'attempt'>;
  };
  /** Own password changes per account, so one account never has more than one password hash in flight. */
  private readonly ownPasswordChanges = new OneAtATime();

  constructor(db: Kysely<Database>, clock: Clock, options: AccountService['options']) {
    this.db = db;
    this.clock = clock;
    this.options = options;
  }

  async list(): Promise<Account[]> {
    const rows = await this.db.selectFrom('principals').selectAll().orderBy('user_key').execute();
    return Promise.all(rows.map((row) => this.toAccount(row)));
  }

  async get(id: number): Promise<Account> {
    const row = await this.db.selectFrom('principals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Account', id);
    return this.toAccount(row);
  }

  private async toAccount(row: {
    id: number;
    user_name: string;
    enabled: number;
    source: 'local' | 'directory' | 'oidc';
    last_sign_in_at: string | null;
    created_at: string | null;
    email: string | null;
  }): Promise<Account> {
    const grants = await this.db
      .selectFrom('permission_grants')
      .select(['entity', 'permission'])
      .where('principal_id', '=', row.id)
      .execute();
    const of = (entity: string) =>
      sortPermissions(grants.filter((grant) => grant.entity === entity).map((grant) => grant.permission as Permission));
    const now = this.clock();
    const active = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('principal_id', '=', row.id)
      .where('revoked_at', 'is', null)
      .where('absolute_expires_at', '>', formatTimestamp(now))
      .where('last_seen_at', '>', formatTimestamp(addMinutes(now, -this.options.idleMinutes)))
      .executeTakeFirstOrThrow();
    return {
      Id: row.id,
      UserName: row.user_name,
      Email: row.email,
      Source: ACCOUNT_SOURCE[row.source],
      Enabled: row.enabled === 1,
      Permissions: { Security: of('Security'), Accounts: of('Accounts') },
      PermissionsEditable: row.source === 'local',
      LastSignInUtc: row.last_sign_in_at,
      CreatedUtc: row.created_at,
      ActiveSessions: Number(active.count),
      InsideDirectoryDomain: row.source === 'local' && this.insideDirectoryDomain(row.user_name),
    };
  }

  private insideDirectoryDomain(userName: string): boolean {
    return this.options.directoryDomain !== null && inDirectoryDomain(userName, this.options.directoryDomain);
  }

  /**
   * Local accounts named in the directory's domain: made before the directory was connected, or an earlier
   * ADMIN_USERNAME. Each shuts the directory person of its name out, so the start-up log lists them.
   */
  async localInsideDirectoryDomain(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('principals')
      .select('user_name')
      .where('source', '=', 'local')
      .orderBy('user_key')
      .execute();
    return rows.map((row) => row.user_name).filter((userName) => this.insideDirectoryDomain(userName));
  }

  async create(input: AccountCreation, actor: Principal): Promise<Account> {
    const weak = weakPassword('Password', input.Password);
    if (weak) throw weak;
    if (this.insideDirectoryDomain(input.UserName)) {
      const domain = this.options.directoryDomain;
      throw new ProblemError(
        400,
        'validation',
        'Invalid request',
        `Names in ${domain}\\ belong to the directory: its people sign in with their directory password.`,
        { extensions: { errors: [{ path: 'UserName', message: `the ${domain} domain is the directory's` }] } },
      );
    }
    const passwordHash = await hashPassword(input.Password, this.options.hashCost);
    const now = this.clock();
    const id = await writeTransaction(this.db, async (trx) => {
      const userKey = userKeyOf(input.UserName);
      const existing = await trx
        .selectFrom('principals')
        .select('id')
        .where('user_key', '=', userKey)
        .executeTakeFirst();
      if (existing) {
        throw new ProblemError(409, 'account-exists', 'Account exists', `An account named ${input.UserName} exists.`, {
          extensions: { accountId: existing.id },
        });
      }
      const { id } = await trx
        .insertInto('principals')
        .values({
          user_name: input.UserName,
          user_key: userKey,
          password_hash: passwordHash,
          enabled: 1,
          source: 'local',
          created_at: formatTimestamp(now),
          last_sign_in_at: null,
          created_in_demo: this.options.demo ? 1 : 0,
          email: input.Email ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writeGrants(trx, id, input.Permissions);
      await recordAccountHistory(trx, {
        principalId: id,
        userName: input.UserName,
        action: 'Created',
        detail: `${permissionsText(input.Permissions)}${input.Email ? `; email ${input.Email}` : ''}`,
        changedBy: actor.userName,
        at: now,
      });
      return id;
    });
    return this.get(id);
  }

  private async writeGrants(trx: Kysely<Database>, id: number, permissions: AccountPermissions): Promise<void> {
    await trx.deleteFrom('permission_grants').where('principal_id', '=', id).execute();
    const rows = (['Security', 'Accounts'] as const).flatMap((entity) =>
      sortPermissions(permissions[entity]).map((permission) => ({ principal_id: id, entity, permission })),
    );
    if (rows.length > 0) await trx.insertInto('permission_grants').values(rows).execute();
  }

  /** The account as it is now, refusing directory accounts for changes the directory owns. */
  private async local(trx: Kysely<Database>, id: number, what: string) {
    const row = await trx
      .selectFrom('principals')
      .select(['id', 'user_name', 'source'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Account', id);
    if (row.source === 'directory') {
      throw new ProblemError(
        409,
        'directory-account',
        'Directory account',
        `${row.user_name} is a directory account: its ${what} come from the directory and are changed there.`,
      );
    }
    if (row.source === 'oidc') {
      throw new ProblemError(
        409,
        'single-sign-on-account',
        'Single sign-on account',
        `${row.user_name} signs in with single sign-on: its ${what} come from the identity provider and are changed there.`,
      );
    }
    return row;
  }

  async setPermissions(id: number, permissions: AccountPermissions, actor: Principal): Promise<Account> {
    if (id === actor.id && !permissions.Accounts.includes('Write')) {
      throw new ProblemError(
        409,
        'forbidden',
        'Own account',
        'You cannot remove your own Accounts Write permission: ask another account administrator.',
      );
    }
    await writeTransaction(this.db, async (trx) => {
      const row = await this.local(trx, id, 'permissions');
      await this.writeGrants(trx, id, permissions);
      await recordAccountHistory(trx, {
        principalId: id,
        userName: row.user_name,
        action: 'PermissionsChanged',
        detail: permissionsText(permissions),
        changedBy: actor.userName,
        at: this.clock(),
      });
    });
    this.options.forget(id);
    return this.get(id);
  }

  /** A local account's email address (what its devices' requests carry as UserEmail); null removes it. */
  async setEmail(id: number, email: string | null, actor: Principal): Promise<Account> {
    await writeTransaction(this.db, async (trx) => {
      const row = await this.local(trx, id, 'email address');
      const before = await trx.selectFrom('principals').select('email').where('id', '=', id).executeTakeFirstOrThrow();
      if (before.email === email) return;
      await trx.updateTable('principals').set({ email }).where('id', '=', id).execute();
      await recordAccountHistory(trx, {
        principalId: id,
        userName: row.user_name,
        action: 'EmailChanged',
        detail: email ?? 'removed',
        changedBy: actor.userName,
        at: this.clock(),
      });
    });
    return this.get(id);
  }

  async setEnabled(id: number, enabled: boolean, actor: Principal): Promise<Account> {
    if (id === actor.id && !enabled) {
      throw new ProblemError(409, 'forbidden', 'Own account', 'You cannot disable your own account.');
    }
    await writeTransaction(this.db, async (trx) => {
      const row = await trx
        .selectFrom('principals')
        .select(['user_name', 'enabled', 'created_in_demo'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw notFound('Account', id);
      if ((row.enabled === 1) === enabled) return;
      const now = this.clock();
      // Enabled by an administrator outside demo mode, an account made in demo mode is trusted from now on; enabled
      // by a demo visitor, it is retired again at the next start with demo mode off.
      const vouched = enabled && row.created_in_demo === 1 && !this.options.demo;
      await trx
        .updateTable('principals')
        .set({ enabled: enabled ? 1 : 0, ...(vouched ? { created_in_demo: 0 } : {}) })
        .where('id', '=', id)
        .execute();
      if (!enabled) {
        await revokeSessionsOf(trx, id, now);
        // Devices end for good: enabling the account again must not revive a phone that may be lost.
        await endDevicesWhere(trx, 'principal_id', id, now);
      }
      await recordAccountHistory(trx, {
        principalId: id,
        userName: row.user_name,
        action: enabled ? 'Enabled' : 'Disabled',
        detail: vouched ? 'created while demo mode was on; stays enabled from now on' : null,
        changedBy: actor.userName,
        at: now,
      });
    });
    this.options.forget(id);
    return this.get(id);
  }

  async resetPassword(id: number, password: string, actor: Principal): Promise<Account> {
    const weak = weakPassword('Password', password);
    if (weak) throw weak;
    const passwordHash = await hashPassword(password, this.options.hashCost);
    await writeTransaction(this.db, async (trx) => {
      const row = await this.local(trx, id, 'passwords');
      const now = this.clock();
      await trx.updateTable('principals').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      await revokeSessionsOf(trx, id, now);
      await recordAccountHistory(trx, {
        principalId: id,
        userName: row.user_name,
        action: 'PasswordReset',
        detail: 'all sessions ended',
        changedBy: actor.userName,
        at: now,
      });
    });
    this.options.forget(id);
    return this.get(id);
  }

  /** Signs an account out everywhere: every one of its sessions ends. */
  async signOutEverywhere(id: number, actor: Principal): Promise<void> {
    await writeTransaction(this.db, async (trx) => {
      const row = await trx.selectFrom('principals').select('user_name').where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('Account', id);
      const now = this.clock();
      await revokeSessionsOf(trx, id, now);
      await recordAccountHistory(trx, {
        principalId: id,
        userName: row.user_name,
        action: 'SignedOutEverywhere',
        changedBy: actor.userName,
        at: now,
      });
    });
    this.options.forget(id);
  }

  /**
   * A person changes their own password: the old one must be right (a session left open must not be enough to take
   * the account). Their other sessions end; the one they are using goes on.
   *
   * Checking the old password is a sign-in in all but name, so it goes through the sign-in throttle: a wrong one
   * counts against the same budgets for the user name and address (reserved before hashing, so a burst cannot
   * overshoot them) and is recorded. Changes of one account run one at a time: a request arriving while another
   * is checked waits its turn rather than being refused, since a double click is no attack, and once the budget is
   * spent the waiting ones are refused without hashing. So a flood from one account keeps one hash busy, never the
   * whole pool that everyone's sign-in hashes on.
   */
  async changeOwnPassword(
    actor: Principal,
    oldPassword: string,
    newPassword: string,
    currentTokenHash: string,
    from: SignInContext,
  ): Promise<void> {
    await this.ownPasswordChanges.run(String(actor.id), async () => {
      const row = await this.db
        .selectFrom('principals')
        .select(['password_hash', 'source'])
        .where('id', '=', actor.id)
        .executeTakeFirst();
      if (!row) throw notFound('Account', actor.id);
      if (row.source === 'directory') {
        throw new ProblemError(
          409,
          'directory-account',
          'Directory account',
          'Your password is your directory password: change it where you change your Windows password.',
        );
      }
      if (row.source === 'oidc') {
        throw new ProblemError(
          409,
          'single-sign-on-account',
          'Single sign-on account',
          'You sign in with single sign-on: your password is kept, and changed, at your identity provider.',
        );
      }
      const right = await this.options.throttle.attempt(actor.userKey, from.clientAddress, () =>
        verifyPassword(oldPassword, row.password_hash),
      );
      if (!right) {
        await recordAccountHistory(this.db, {
          principalId: actor.id,
          userName: actor.userName,
          action: 'PasswordChangeFailed',
          detail: 'the current password was wrong',
          clientAddress: from.clientAddress,
          consumer: from.consumer,
          changedBy: actor.userName,
          at: this.clock(),
        });
        throw new ProblemError(422, 'wrong-password', 'Wrong password', 'The current password is not right.', {
          extensions: { errors: [{ path: 'OldPassword', message: 'is not your current password' }] },
        });
      }
      const weak = weakPassword('NewPassword', newPassword);
      if (weak) throw weak;
      if (newPassword === oldPassword) {
        throw new ProblemError(400, 'validation', 'Invalid request', 'NewPassword is the current password.', {
          extensions: { errors: [{ path: 'NewPassword', message: 'is the current password' }] },
        });
      }
      const passwordHash = await hashPassword(newPassword, this.options.hashCost);
      await writeTransaction(this.db, async (trx) => {
        const now = this.clock();
        await trx.updateTable('principals').set({ password_hash: passwordHash }).where('id', '=', actor.id).execute();
        await revokeSessionsOf(trx, actor.id, now, currentTokenHash);
        await recordAccountHistory(trx, {
          principalId: actor.id,
          userName: actor.userName,
          action: 'PasswordChanged',
          detail: 'other sessions ended',
          changedBy: actor.userName,
          at: now,
        });
      });
    });
    this.options.forget(actor.id);
  }

  async history(principalId: number | null): Promise<AccountHistoryEntry[]> {
    if (principalId !== null) await this.get(principalId);
    let query = this.db.selectFrom('account_history').selectAll().orderBy('id', 'desc').limit(HISTORY_LIMIT);
    if (principalId !== null) query = query.where('principal_id', '=', principalId);
    const rows = await query.execute();
    return rows.map((row) => ({
      Id: row.id,
      AccountId: row.principal_id,
      UserName: row.user_name,
      Action: row.action as AccountHistoryAction,
      Detail: row.detail,
      ClientAddress: row.client_address,
      Consumer: row.consumer,
      ChangedBy: row.changed_by,
      ChangedTimestampUtc: row.changed_at,
    }));
  }
}
