/**
 * The audit stream's events (AUDIT_LOG): one JSON line each, with Elastic Common Schema field names, so a SIEM
 * ingests them without a mapping of its own. This product's own fields sit under `tachyon`.
 */

import { ACTIVITY_ACTIONS, type ActivityAction } from '../../shared/contract/index.ts';

/** The actions, as the Activity endpoint names them (the contract's list, which the dashboard labels too). */
export const AUDIT_ACTIONS = ACTIVITY_ACTIONS;
export type AuditAction = ActivityAction;

/**
 * Who may read an action's events beside the audit stream (the Activity page, a person's page): `security`, anyone
 * with Read on Security; `accounts`, only those who also hold Read on Accounts, as for the account itself: sign-ins,
 * second factors and step-ups, accounts and API accounts, and what stands in for or shuts out a person's phones
 * (temporary codes, their devices disabled).
 */
export type AuditReaders = 'security' | 'accounts';

/**
 * What each action is, declared once: its ECS categorization (event.category, and event.type among the types ECS
 * expects with those categories) and who may read its events.
 */
export const AUDIT_ACTION_FACTS: Record<
  AuditAction,
  { category: readonly string[]; type: readonly string[]; readers: AuditReaders }
> = {
  'sign-in': { category: ['authentication', 'session'], type: ['start'], readers: 'accounts' },
  'sign-out': { category: ['authentication', 'session'], type: ['end'], readers: 'accounts' },
  'session-ended': { category: ['session'], type: ['end'], readers: 'accounts' },
  'authorization-decided': { category: ['iam'], type: ['change'], readers: 'security' },
  'push-user-status-changed': { category: ['iam'], type: ['change'], readers: 'security' },
  'account-created': { category: ['iam'], type: ['user', 'creation'], readers: 'accounts' },
  'account-changed': { category: ['iam'], type: ['user', 'change'], readers: 'accounts' },
  'account-disabled': { category: ['iam'], type: ['user', 'change'], readers: 'accounts' },
  'account-password-reset': { category: ['iam'], type: ['user', 'change'], readers: 'accounts' },
  'api-account-created': { category: ['iam'], type: ['user', 'creation'], readers: 'accounts' },
  'api-account-secret-rotated': { category: ['iam'], type: ['user', 'change'], readers: 'accounts' },
  'enrollment-link-created': { category: ['iam'], type: ['creation'], readers: 'security' },
  'device-enrolled': { category: ['iam'], type: ['creation'], readers: 'security' },
  'device-removed': { category: ['iam'], type: ['deletion'], readers: 'security' },
  // The helpdesk made an enrolment link for someone else's phone: whoever holds it enrols a device as that person.
  'enrollment-link-issued': { category: ['iam'], type: ['creation'], readers: 'security' },
  // A person says a code reached them that they did not ask for: someone else holds their password.
  'code-reported': { category: ['authentication', 'intrusion_detection'], type: ['info'], readers: 'security' },
  'device-reported': { category: ['authentication', 'intrusion_detection'], type: ['info'], readers: 'security' },
  'code-report-handled': { category: ['intrusion_detection'], type: ['change'], readers: 'security' },
  'instruction-created': { category: ['authentication'], type: ['info'], readers: 'security' },
  'token-accepted': { category: ['authentication'], type: ['info'], readers: 'security' },
  'token-refused': { category: ['authentication'], type: ['info'], readers: 'security' },
  'backup-taken': { category: ['database'], type: ['access'], readers: 'security' },
  'backup-restored': { category: ['database', 'session'], type: ['change', 'end'], readers: 'security' },
  'demo-reset': { category: ['database', 'configuration'], type: ['change'], readers: 'security' },
  'second-factor-added': { category: ['iam', 'authentication'], type: ['user', 'change'], readers: 'accounts' },
  'second-factor-removed': { category: ['iam', 'authentication'], type: ['user', 'change'], readers: 'accounts' },
  'second-factor-verified': { category: ['authentication'], type: ['info'], readers: 'accounts' },
  'second-factor-failed': { category: ['authentication'], type: ['info'], readers: 'accounts' },
  'recovery-code-used': { category: ['authentication'], type: ['info'], readers: 'accounts' },
  'sign-in-methods-reset': { category: ['iam'], type: ['user', 'change'], readers: 'accounts' },
  'step-up': { category: ['authentication'], type: ['info'], readers: 'accounts' },
  'devices-disabled': { category: ['iam'], type: ['change'], readers: 'accounts' },
  // A code that stands in for a person's phone: whoever holds it passes their second step until it ends.
  'temporary-code-issued': { category: ['iam', 'authentication'], type: ['creation'], readers: 'accounts' },
  'temporary-code-revoked': { category: ['iam', 'authentication'], type: ['deletion'], readers: 'accounts' },
  'temporary-code-used': { category: ['authentication'], type: ['info'], readers: 'accounts' },
  'alert-destination-created': { category: ['configuration'], type: ['creation'], readers: 'security' },
  'alert-destination-changed': { category: ['configuration'], type: ['change'], readers: 'security' },
  'alert-destination-removed': { category: ['configuration'], type: ['deletion'], readers: 'security' },
  'alert-secret-rotated': { category: ['configuration'], type: ['change'], readers: 'security' },
  // An alert reached its destination (success), or was given up after a day of failures (failure).
  'alert-sent': { category: ['configuration'], type: ['info'], readers: 'security' },
};

/** What the event was about: an account, an authorization request, a push message user, a device… */
export type AuditEntityType =
  | 'Account'
  | 'Session'
  | 'AuthorizationRequest'
  | 'PushMessageUser'
  | 'Device'
  | 'Instruction'
  | 'ScheduledInstruction'
  | 'Database'
  | 'AlertDestination';

export interface AuditEvent {
  action: AuditAction;
  outcome: 'success' | 'failure';
  /** On a failure, its reason code (the problem kind the caller got); never a password nor a token. */
  reason?: string | null;
  /** Who acted (for a sign-in, the name typed). */
  userName?: string | null;
  sourceIp?: string | null;
  userAgent?: string | null;
  entity?: { type: AuditEntityType; id: number | string | null } | null;
  /** Further facts of the event (a new status, what changed): plain values only. */
  details?: Record<string, string | number | boolean | null>;
}

/** ECS version the field names follow. */
export const ECS_VERSION = '8.11.0';

/** Text from a client (a typed user name, a User-Agent) is kept to this length in a line. */
const TEXT_MAX = 256;

const clip = (text: string | null | undefined) => (text ? text.slice(0, TEXT_MAX) : null);

/** One event as the JSON line the stream carries (without its line break). */
export function auditLine(event: AuditEvent, at: Date): string {
  const { category, type } = AUDIT_ACTION_FACTS[event.action];
  const userName = clip(event.userName);
  const userAgent = clip(event.userAgent);
  const tachyon: Record<string, unknown> = {};
  if (event.entity) tachyon.entity = event.entity;
  if (event.details && Object.keys(event.details).length > 0) tachyon.details = event.details;
  return JSON.stringify({
    '@timestamp': at.toISOString(),
    ecs: { version: ECS_VERSION },
    event: {
      kind: 'event',
      category,
      type,
      action: event.action,
      outcome: event.outcome,
      // A failure's reason code; a second factor's events name their method here whatever the outcome.
      ...(event.outcome === 'failure' || event.reason ? { reason: event.reason ?? 'unknown' } : {}),
    },
    ...(userName ? { user: { name: userName } } : {}),
    ...(event.sourceIp ? { source: { ip: event.sourceIp } } : {}),
    ...(userAgent ? { user_agent: { original: userAgent } } : {}),
    service: { name: 'tachyon-consumer' },
    ...(Object.keys(tachyon).length > 0 ? { tachyon } : {}),
  });
}
