import type { ActivityEvent } from '../../../shared/contract/index.ts';

/**
 * What each security event is called on the Activity page, in plain words. An action this list does not know yet (a
 * newer server's) shows its own name.
 */
export const ACTIVITY_ACTION_LABELS: Record<string, string> = {
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
};

export const actionLabel = (action: string) => ACTIVITY_ACTION_LABELS[action] ?? action;

/** What an event's decision said, when it says one: "approved", "rejected". */
function detailText(event: ActivityEvent): string {
  const details = event.Details;
  if (event.Action === 'authorization-decided' && typeof details.authorized === 'boolean') {
    return details.authorized ? 'approved' : 'rejected';
  }
  if (event.Action === 'device-enrolled' && typeof details.by === 'string') {
    return details.by === 'enrollment-code' ? 'from an enrolment link' : 'signed in on the phone';
  }
  if (event.Action === 'enrollment-link-issued' && typeof details.for === 'string') return `for ${details.for}`;
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');
}

/** One line for an event: "Device decision (approved)", "Signed in, failed: invalid-credentials". */
export function activitySummary(event: ActivityEvent): string {
  const detail = detailText(event);
  const failure = event.Outcome === 'failure' ? `, failed${event.Reason ? `: ${event.Reason}` : ''}` : '';
  return `${actionLabel(event.Action)}${detail ? ` (${detail})` : ''}${failure}`;
}
