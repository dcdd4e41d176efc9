/**
 * The audit stream's events (AUDIT_LOG): one JSON line each, with Elastic Common Schema field names, so a SIEM
 * ingests them without a mapping of its own. This product's own fields sit under `tachyon`.
 */

import { ACTIVITY_ACTIONS, type ActivityAction } from '../../shared/contract/index.ts';

/** The actions, as the Activity endpoint names them (the contract's list, which the dashboard labels too). */
export const AUDIT_ACTIONS = ACTIVITY_ACTIONS;
export type AuditAction = ActivityAction;

/**
 * What each action is for a SIEM, declared once: its ECS categorization (event.category, and event.type among the
 * types ECS expects with those categories). Who may read its events is the contract's (ACTIVITY_READERS).
 */
export const AUDIT_ACTION_FACTS: Record<AuditAction, { category: readonly string[]; type: readonly string[] }> = {
  'sign-in': { category: ['authentication', 'session'], type: ['start'] },
  'sign-out': { category: ['authentication', 'session'], type: ['end'] },
  'session-ended': { category: ['session'], type: ['end'] },
  'authorization-decided': { category: ['iam'], type: ['change'] },
  'push-user-status-changed': { category: ['iam'], type: ['change'] },
  'account-created': { category: ['iam'], type: ['user', 'creation'] },
  'account-changed': { category: ['iam'], type: ['user', 'change'] },
  'account-disabled': { category: ['iam'], type: ['user', 'change'] },
  'account-password-reset': { category: ['iam'], type: ['user', 'change'] },
  'api-account-created': { category: ['iam'], type: ['user', 'creation'] },
  'api-account-secret-rotated': { category: ['iam'], type: ['user', 'change'] },
  'enrollment-link-created': { category: ['iam'], type: ['creation'] },
  'device-enrolled': { category: ['iam'], type: ['creation'] },
  'device-removed': { category: ['iam'], type: ['deletion'] },
  // The helpdesk made an enrolment link for someone else's phone: whoever holds it enrols a device as that person.
  'enrollment-link-issued': { category: ['iam'], type: ['creation'] },
  // A person says a code reached them that they did not ask for: someone else holds their password.
  'code-reported': { category: ['authentication', 'intrusion_detection'], type: ['info'] },
  'device-reported': { category: ['authentication', 'intrusion_detection'], type: ['info'] },
  'code-report-handled': { category: ['intrusion_detection'], type: ['change'] },
  'instruction-created': { category: ['authentication'], type: ['info'] },
  'token-accepted': { category: ['authentication'], type: ['info'] },
  'token-refused': { category: ['authentication'], type: ['info'] },
  'backup-taken': { category: ['database'], type: ['access'] },
  'backup-restored': { category: ['database', 'session'], type: ['change', 'end'] },
  'demo-reset': { category: ['database', 'configuration'], type: ['change'] },
  'second-factor-added': { category: ['iam', 'authentication'], type: ['user', 'change'] },
  'second-factor-removed': { category: ['iam', 'authentication'], type: ['user', 'change'] },
  'second-factor-verified': { category: ['authentication'], type: ['info'] },
  'second-factor-failed': { category: ['authentication'], type: ['info'] },
  'recovery-code-used': { category: ['authentication'], type: ['info'] },
  'sign-in-methods-reset': { category: ['iam'], type: ['user', 'change'] },
  'step-up': { category: ['authentication'], type: ['info'] },
  'devices-disabled': { category: ['iam'], type: ['change'] },
  // A code that stands in for a person's phone: whoever holds it passes their second step until it ends.
  'temporary-code-issued': { category: ['iam', 'authentication'], type: ['creation'] },
  'temporary-code-revoked': { category: ['iam', 'authentication'], type: ['deletion'] },
  'temporary-code-used': { category: ['authentication'], type: ['info'] },
  'alert-destination-created': { category: ['configuration'], type: ['creation'] },
  'alert-destination-changed': { category: ['configuration'], type: ['change'] },
  'alert-destination-removed': { category: ['configuration'], type: ['deletion'] },
  'alert-secret-rotated': { category: ['configuration'], type: ['change'] },
  // An alert reached its destination (success), or was given up after a day of failures (failure).
  'alert-sent': { category: ['configuration'], type: ['info'] },
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
