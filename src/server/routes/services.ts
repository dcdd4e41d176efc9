import type { Kysely } from 'kysely';
import type { AuditLog } from '../audit/audit-log.ts';
import type { BackupService } from '../backup/backup-service.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AccountService } from '../domain/accounts/accounts.ts';
import type { AlertService } from '../domain/alerts/alerts.ts';
import type { OidcSignIn } from '../domain/authentication/oidc/oidc-sign-in.ts';
import type { SessionService } from '../domain/authentication/sessions.ts';
import type { SignInMethodService } from '../domain/authentication/sign-in-methods.ts';
import type { LoginThrottle } from '../domain/authentication/throttle/login-throttle.ts';
import type { ChangeFeed } from '../domain/core/change-feed.ts';
import type { TokenPushSender } from '../domain/delivery/token-delivery.ts';
import type { PushEndpointPolicy } from '../domain/devices/push-endpoint-policy.ts';
import type { TokenDelivery } from '../domain/two-factor/instructions.ts';
import type { Clock } from '../lib/clock.ts';
import type { VapidKeys } from '../push/vapid-keys.ts';

/** What routes need from the rest of the service, passed in rather than reached for. */
export interface Services {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  sessions: SessionService;
  /** The sign-in budgets, which every step proving who someone is spends (passwords, passkeys, recovery codes). */
  throttle: LoginThrottle;
  changes: ChangeFeed;
  accounts: AccountService;
  /** Web Push; null when this service sends none (Web Push off, or no sender given). */
  pushSender: TokenPushSender | null;
  /** How new codes reach devices, for the instruction endpoints and the demo actors alike. */
  delivery: TokenDelivery;
  vapid: VapidKeys;
  pushPolicy: PushEndpointPolicy;
  /** The audit stream (AUDIT_LOG); records nothing when it is off. */
  audit: AuditLog;
  /** Single sign-on through the organisation's OpenID provider; null when OIDC_ISSUER is not set. */
  oidc: OidcSignIn | null;
  /** Alert destinations and the outbox that sends to them. */
  alerts: AlertService;
  /** Passkeys, recovery codes, the second step after a password, step-up, and an administrator's reset. */
  signInMethods: SignInMethodService;
  /** Backups of the database (GET /api/Admin/Backup and BACKUP_DIR's schedule). */
  backups: BackupService;
}
