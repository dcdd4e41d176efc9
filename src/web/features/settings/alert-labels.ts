import type { AlertChannel, AlertEventKind } from '../../../shared/contract/index.ts';

/** What each alert event is called in Settings → Alerts. */
export const ALERT_EVENT_LABELS: Record<AlertEventKind, string> = {
  CodeReported: 'A code or device reported (“This wasn’t me”)',
  DeviceWaiting: 'A device waiting for approval',
  DeviceApprovedForAdmin: 'A device approved for someone with Accounts permissions',
  PermissionsChanged: 'Permissions changed',
  ApiAccountChanged: 'API account created or its secret rotated',
  SignInMethodsReset: 'Sign-in methods reset',
  TemporaryCodeIssued: 'Temporary code issued',
  LockedOut: 'Sign-ins locked out after failures',
};

export const ALERT_CHANNEL_LABELS: Record<AlertChannel, string> = {
  Email: 'Email',
  Webhook: 'Webhook (signed)',
  Slack: 'Slack',
  Teams: 'Microsoft Teams',
};

/** What the Target field asks for, per channel. */
export const ALERT_TARGET_HINTS: Record<AlertChannel, { label: string; placeholder: string; description: string }> = {
  Email: {
    label: 'Email addresses',
    placeholder: 'approvers, soc@acme.example',
    description:
      'Separated by commas; “approvers” sends to everyone who may approve devices and has an email address. Sent through the mail server the operator set (SMTP_URL).',
  },
  Webhook: {
    label: 'Webhook URL',
    placeholder: 'https://siem.acme.example/hooks/tachyon',
    description: 'Signed the Standard Webhooks way; you will see its secret once.',
  },
  Slack: {
    label: 'Slack incoming webhook URL',
    placeholder: 'https://hooks.slack.com/services/…',
    description: 'From a Slack app’s Incoming Webhooks.',
  },
  Teams: {
    label: 'Teams workflow webhook URL',
    placeholder: 'https://…/workflows/…',
    description: 'From a Teams channel’s “Post to a channel when a webhook request is received” workflow.',
  },
};
