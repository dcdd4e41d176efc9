import type { Kysely } from 'kysely';
import type { AlertEventKind } from '../../../shared/contract/index.ts';
import type { AuditEvent } from '../../audit/audit-event.ts';
import type { Database } from '../../db/schema.ts';
import { userKeyOf } from '../identity/principals.ts';

/**
 * An alert: what happened, in words, and where in the dashboard it is answered. It is what the outbox keeps and the
 * senders render, so it never holds a code, a secret or a password: only names, ids and the link.
 */
export interface Alert {
  kind: AlertEventKind;
  /** One line: who, what, to whom. */
  summary: string;
  /** Further facts, each a label and a value, in order. */
  facts: Array<[string, string]>;
  /** The dashboard path that answers it (joined to PUBLIC_URL by the senders). */
  path: string;
  /** The link's words ("Open the request"). */
  action: string;
  /** When it happened (ISO 8601). */
  occurredAt: string;
}

/** One lock-out alert per user name in this long, however many refused attempts follow. */
const LOCK_OUT_QUIET_MS = 15 * 60_000;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const personPath = (userName: string) => `/people/${encodeURIComponent(userName)}`;
const accountPath = (id: number | string | null | undefined) => (id ? `/accounts?account=${id}` : '/accounts');

/**
 * Which audit events are alerts, and what each says. An event is read as its change is written, in that change's
 * transaction (or after it, for an event no change carried), so what an alert needs beyond the event is read from
 * the database as the change leaves it.
 */
export class AlertRules {
  private readonly lockOuts = new Map<string, number>();
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** `db`: where to read, the change's transaction when the event is written with it. */
  async alertOf(event: AuditEvent, at: Date, db: Kysely<Database> = this.db): Promise<Alert | null> {
    const made = await this.match(event, at, db);
    return made ? { ...made, occurredAt: at.toISOString() } : null;
  }

  private async match(event: AuditEvent, at: Date, db: Kysely<Database>): Promise<Omit<Alert, 'occurredAt'> | null> {
    const actor = event.userName ?? 'someone';
    const entityId = event.entity?.id ?? null;
    const from: Array<[string, string]> = event.sourceIp ? [['From', event.sourceIp]] : [];
    if (event.action === 'sign-in' && event.outcome === 'failure' && event.reason === 'too-many-requests') {
      return this.lockOut(event.userName ?? null, at, from);
    }
    if (event.outcome !== 'success') return null;
    switch (event.action) {
      case 'code-reported':
        return {
          kind: 'CodeReported',
          summary: `${actor} reported a sign-in code they did not ask for ("This wasn't me")`,
          facts: [['Meaning', 'Someone else knows their password; their sessions were ended.'], ...from],
          path: personPath(actor),
          action: 'Open the person',
        };
      case 'device-reported':
        return {
          kind: 'CodeReported',
          summary: `${actor} reported a new device enrolled for them as not theirs ("This wasn't me")`,
          facts: [['Meaning', 'Someone else knows their password; the device and their sessions were ended.'], ...from],
          path: personPath(actor),
          action: 'Open the person',
        };
      case 'device-enrolled':
        return this.deviceWaiting(db, entityId);
      case 'authorization-decided':
        return event.details?.authorized === true ? this.deviceApproved(db, entityId, actor) : null;
      case 'account-changed':
        return event.details?.change === 'permissions' ? this.permissionsChanged(db, entityId, actor) : null;
      case 'api-account-created':
      case 'api-account-secret-rotated': {
        const name = await this.accountName(db, entityId);
        const created = event.action === 'api-account-created';
        return {
          kind: 'ApiAccountChanged',
          summary: `${actor} ${created ? 'created the API account' : 'rotated the secret of the API account'} ${name}`,
          facts: [['API account', name], ...from],
          path: accountPath(entityId),
          action: 'Open the account',
        };
      }
      case 'sign-in-methods-reset': {
        const name = text(event.details?.account) ?? (await this.accountName(db, entityId));
        return {
          kind: 'SignInMethodsReset',
          summary: `${actor} reset the sign-in methods (passkeys, recovery codes) of ${name}`,
          facts: [['Account', name], ...from],
          path: accountPath(entityId),
          action: 'Open the account',
        };
      }
      case 'temporary-code-issued': {
        // Whose code: details.for (as the helpdesk's issue records it), else the account the event names.
        const person = text(event.details?.for) ?? (await this.accountName(db, entityId));
        return {
          kind: 'TemporaryCodeIssued',
          summary: `${actor} issued a temporary sign-in code to ${person}`,
          facts: [['Person', person], ...from],
          path: personPath(person),
          action: 'Open the person',
        };
      }
      default:
        return null;
    }
  }

  private lockOut(userName: string | null, at: Date, from: Array<[string, string]>): Omit<Alert, 'occurredAt'> | null {
    if (!userName) return null;
    const key = userKeyOf(userName);
    const last = this.lockOuts.get(key);
    if (last !== undefined && at.getTime() - last < LOCK_OUT_QUIET_MS) return null;
    this.lockOuts.set(key, at.getTime());
    for (const [other, when] of this.lockOuts)
      if (at.getTime() - when >= LOCK_OUT_QUIET_MS) this.lockOuts.delete(other);
    return {
      kind: 'LockedOut',
      summary: `Sign-ins as ${userName} are refused for a while after too many failures`,
      facts: [['User name', userName], ...from],
      path: personPath(userName),
      action: 'Open the person',
    };
  }

  private async deviceWaiting(
    db: Kysely<Database>,
    requestId: number | string | null,
  ): Promise<Omit<Alert, 'occurredAt'> | null> {
    const request = await this.request(db, requestId);
    if (request?.status !== 'Pending') return null;
    return {
      kind: 'DeviceWaiting',
      summary: `A new device of ${request.user_name} waits for approval`,
      facts: [
        ['Person', request.user_name],
        ['Device', [request.manufacturer, request.model].filter(Boolean).join(' ') || request.device_type],
      ],
      path: `/authorization-requests/${request.id}`,
      action: 'Approve or reject it',
    };
  }

  private async deviceApproved(db: Kysely<Database>, requestId: number | string | null, actor: string) {
    const request = await this.request(db, requestId);
    if (!request) return null;
    const accounts = await db
      .selectFrom('principals')
      .innerJoin('permission_grants', 'permission_grants.principal_id', 'principals.id')
      .select('permission_grants.permission')
      .where('principals.user_key', '=', userKeyOf(request.user_name))
      .where('permission_grants.entity', '=', 'Accounts')
      .execute();
    if (accounts.length === 0) return null;
    return {
      kind: 'DeviceApprovedForAdmin',
      summary: `${actor} approved a new device for ${request.user_name}, who holds Accounts permissions`,
      facts: [
        ['Person', request.user_name],
        ['Accounts permissions', accounts.map((grant) => grant.permission).join(', ')],
        ['Device', [request.manufacturer, request.model].filter(Boolean).join(' ') || request.device_type],
      ],
      path: `/authorization-requests/${request.id}`,
      action: 'Open the request',
    } satisfies Omit<Alert, 'occurredAt'>;
  }

  private async permissionsChanged(db: Kysely<Database>, accountId: number | string | null, actor: string) {
    const name = await this.accountName(db, accountId);
    const grants =
      typeof accountId === 'number'
        ? await db
            .selectFrom('permission_grants')
            .select(['entity', 'permission'])
            .where('principal_id', '=', accountId)
            .orderBy('entity')
            .orderBy('permission')
            .execute()
        : [];
    return {
      kind: 'PermissionsChanged',
      summary: `${actor} changed the permissions of ${name}`,
      facts: [
        ['Account', name],
        ['Now', grants.map((grant) => `${grant.entity} ${grant.permission}`).join(', ') || 'none'],
      ],
      path: accountPath(accountId),
      action: 'Open the account',
    } satisfies Omit<Alert, 'occurredAt'>;
  }

  private request(db: Kysely<Database>, id: number | string | null) {
    if (typeof id !== 'number') return Promise.resolve(undefined);
    return db
      .selectFrom('authorization_requests')
      .select(['id', 'user_name', 'status', 'manufacturer', 'model', 'device_type'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  private async accountName(db: Kysely<Database>, id: number | string | null): Promise<string> {
    if (typeof id !== 'number') return 'an account';
    const row = await db.selectFrom('principals').select('user_name').where('id', '=', id).executeTakeFirst();
    return row?.user_name ?? `account ${id}`;
  }
}
