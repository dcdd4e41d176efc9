import type { Alert } from './alert-rules.ts';

/**
 * What each channel is sent for an alert: an email (plain and HTML), a Standard Webhooks JSON body, or a chat message
 * for a Slack or Microsoft Teams incoming webhook. Each carries the alert's words and the link that answers it, never
 * a code or a secret (the alert holds none).
 */

export const linkOf = (alert: Alert, publicUrl: string) => new URL(alert.path, publicUrl).toString();

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface AlertEmail {
  subject: string;
  text: string;
  html: string;
}

export function alertEmail(alert: Alert, publicUrl: string): AlertEmail {
  const link = linkOf(alert, publicUrl);
  const when = `${alert.occurredAt.replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
  const facts: Array<[string, string]> = [...alert.facts, ['When', when]];
  const text = [
    alert.summary,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    `${alert.action}: ${link}`,
    '',
    'Sent by Tachyon because this address is an alert destination (Settings → Alerts).',
  ].join('\n');
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding-right:12px">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif">` +
    `<p><strong>${escapeHtml(alert.summary)}</strong></p><table>${rows}</table>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(alert.action)}</a></p>` +
    `<p style="color:#666;font-size:12px">Sent by Tachyon because this address is an alert destination (Settings → Alerts).</p>` +
    `</body></html>`;
  return { subject: `Tachyon alert: ${alert.summary}`, text, html };
}

/** The kinds as the webhook's `type` names them: `security.code-reported`, … */
const webhookType = (alert: Alert) => `security.${alert.kind.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;

/** The Standard Webhooks body: `type`, `timestamp` and `data`. */
export function webhookBody(alert: Alert, publicUrl: string): string {
  return JSON.stringify({
    type: webhookType(alert),
    timestamp: alert.occurredAt,
    data: {
      kind: alert.kind,
      summary: alert.summary,
      facts: Object.fromEntries(alert.facts),
      url: linkOf(alert, publicUrl),
    },
  });
}

/** A Slack incoming webhook's message (mrkdwn). */
export function slackBody(alert: Alert, publicUrl: string): string {
  const slackText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const facts = alert.facts.map(([label, value]) => `*${slackText(label)}:* ${slackText(value)}`).join('\n');
  return JSON.stringify({
    text: `*${slackText(alert.summary)}*\n${facts}\n<${linkOf(alert, publicUrl)}|${slackText(alert.action)}>`,
  });
}

/** A Microsoft Teams workflow webhook's message: one Adaptive Card with the facts and the link. */
export function teamsBody(alert: Alert, publicUrl: string): string {
  return JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: alert.summary, weight: 'Bolder', wrap: true },
            { type: 'FactSet', facts: alert.facts.map(([title, value]) => ({ title, value })) },
          ],
          actions: [{ type: 'Action.OpenUrl', title: alert.action, url: linkOf(alert, publicUrl) }],
        },
      },
    ],
  });
}
