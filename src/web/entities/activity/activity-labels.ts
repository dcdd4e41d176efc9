import type { ActivityAction, ActivityEvent } from '../../../shared/contract/index.ts';
import { inWords } from '../../../shared/in-words.ts';
import { formatAbsolute, timestampMs } from '../../lib/time/time-format.ts';

/**
 * What each security event is called on the Activity page, in plain words: one for every action of the contract's
 * list (the type says when one is missing). An action a newer server adds shows its own name, in words.
 */
export const ACTIVITY_ACTION_LABELS: Record<ActivityAction, string> = {
  'sign-in': 'Signed in',
  'sign-out': 'Signed out',
  'session-ended': 'Session ended',
  'step-up': 'Confirmed a second factor again (step-up)',
  'second-factor-added': 'Second factor added',
  'second-factor-removed': 'Second factor removed',
  'second-factor-verified': 'Second factor verified',
  'second-factor-failed': 'Second factor failed',
  'recovery-code-used': 'Recovery code used',
  'sign-in-methods-reset': 'Sign-in methods reset',
  'authorization-decided': 'Device decision',
  'push-user-status-changed': 'Push user status changed',
  'enrollment-link-created': 'Own enrolment link made',
  'enrollment-link-issued': 'Enrolment link issued for someone',
  'device-enrolled': 'Device enrolled',
  'device-removed': 'Device removed',
  'code-reported': '“This wasn’t me” (a code)',
  'device-reported': '“This wasn’t me” (a new device)',
  'code-report-handled': 'Report marked handled',
  'instruction-created': 'Code asked for',
  'token-accepted': 'Code accepted',
  'token-refused': 'Code refused',
  'account-created': 'Account created',
  'account-changed': 'Account changed',
  'account-disabled': 'Account disabled',
  'account-password-reset': 'Password reset',
  'api-account-created': 'API account created',
  'api-account-secret-rotated': 'API account secret rotated',
  'backup-taken': 'Backup taken',
  'backup-restored': 'Backup restored',
  'demo-reset': 'Demo data reset',
  'devices-disabled': 'Devices disabled',
  'temporary-code-issued': 'Temporary code issued',
  'temporary-code-revoked': 'Temporary code revoked',
  'temporary-code-used': 'Temporary code used',
  'alert-destination-created': 'Alert destination added',
  'alert-destination-changed': 'Alert destination changed',
  'alert-destination-removed': 'Alert destination removed',
  'alert-secret-rotated': 'Alert signing secret rotated',
  'alert-sent': 'Alert sent',
};

export const actionLabel = (action: string) =>
  (ACTIVITY_ACTION_LABELS as Record<string, string | undefined>)[action] ?? inWords(action);

type DetailValue = ActivityEvent['Details'][string];

/** Why a session ended, in words. */
const SESSION_END_CAUSES: Record<string, string> = {
  'idle-timeout': 'idle too long',
  'absolute-timeout': 'at its longest allowed time',
  'signed-out-everywhere': 'signed out everywhere',
};

const time = (value: DetailValue) => {
  const at = typeof value === 'string' ? timestampMs(value) : null;
  return at === null ? String(value) : formatAbsolute(at);
};

/**
 * Each detail an event may carry, in words, or null where it says nothing a reader needs on the event's line (the
 * whole record is in the export and the audit stream). A detail not listed (a newer server's) shows as `name: value`.
 */
const DETAIL_WORDS: Record<string, (value: DetailValue) => string | null> = {
  authorized: (value) => (value ? 'approved' : 'rejected'),
  by: (value) =>
    value === 'enrollment-code' ? 'from an enrolment link' : value === 'signed-in' ? 'signed in on the phone' : null,
  for: (value) => `for ${value}`,
  account: (value) => `of ${value}`,
  accountKind: (value) => (value === 'Api' ? 'an API account' : null),
  containment: (value) => (value === true ? 'with Accounts Contain' : null),
  temporaryCode: (value) => `code #${value}`,
  expires: (value) => `valid until ${time(value)}`,
  status: (value) => `now ${value}`,
  cause: (value) => SESSION_END_CAUSES[String(value)] ?? inWords(String(value)),
  change: (value) => inWords(String(value)),
  method: (value) => (value === 'oidc' ? 'single sign-on' : inWords(String(value))),
  left: (value) => `${value} left`,
  devicesRemoved: (value) => `${value} ${value === 1 ? 'device' : 'devices'} removed`,
  report: (value) => `report #${value}`,
  deviceId: (value) => `device #${value}`,
  channel: (value) => `by ${value}`,
  events: (value) => `for ${String(value).split(' ').length} kinds of event`,
  alert: (value) => inWords(String(value)),
  attempts: (value) => (Number(value) > 1 ? `after ${value} tries` : null),
  trigger: (value) => inWords(String(value)),
  file: (value) => String(value),
  uses: (value) => (value === 1 ? 'usable once' : `usable ${value} times`),
  validMinutes: () => null,
  subject: () => null,
  mfaCounted: () => null,
  message: (value) => (value ? String(value) : null),
  endedAt: () => null,
  messageId: () => null,
  bytes: () => null,
  codesLeftOut: () => null,
};

/** What an event's details say, in words: "approved", "for ACME\\jo, code #3, valid until …". */
function detailText(event: ActivityEvent): string {
  return Object.entries(event.Details)
    .map(([key, value]) => {
      const words = DETAIL_WORDS[key];
      return words ? words(value) : `${key}: ${String(value)}`;
    })
    .filter((part): part is string => part !== null && part !== '')
    .join(', ');
}

/** One line for an event: "Device decision (approved)", "Signed in, failed: invalid credentials". */
export function activitySummary(event: ActivityEvent): string {
  const detail = detailText(event);
  // The reason in words: the service keeps them in the event's searchable text beside the code.
  const failure = event.Outcome === 'failure' ? `, failed${event.Reason ? `: ${inWords(event.Reason)}` : ''}` : '';
  return `${actionLabel(event.Action)}${detail ? ` (${detail})` : ''}${failure}`;
}
