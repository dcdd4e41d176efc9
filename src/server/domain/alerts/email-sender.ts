import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { AlertEmail } from './alert-messages.ts';

/** A mail server that does not answer in this long has failed this attempt. */
const SMTP_TIMEOUT_MS = 15_000;

export interface EmailSettings {
  /** SMTP_URL: smtp://user:password@host:587 (STARTTLS required), or smtps:// (TLS from the start). */
  url: string;
  /** SMTP_FROM: the sender address. */
  from: string;
  /** Certificates to trust beside the system's (tests; an operator uses NODE_EXTRA_CA_CERTS). */
  ca?: string;
}

/**
 * Email through the organisation's SMTP server, by nodemailer. A plain smtp:// URL must upgrade with STARTTLS
 * (`requireTLS`): an alert names people and where they signed in from, so it never crosses the network in clear.
 */
export class EmailSender {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(settings: EmailSettings) {
    const secure = settings.url.startsWith('smtps:');
    this.transport = nodemailer.createTransport({
      url: settings.url,
      secure,
      requireTLS: !secure,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      ...(settings.ca ? { tls: { ca: settings.ca } } : {}),
    } as TransportOptions);
    this.from = settings.from;
  }

  async send(to: readonly string[], email: AlertEmail, messageId: string): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: [...to],
      subject: email.subject,
      text: email.text,
      html: email.html,
      // The outbox's id: a resent alert is the same message to a mail system that de-duplicates.
      messageId: `<${messageId}@tachyon.alerts>`,
    });
  }

  close(): void {
    this.transport.close();
  }
}
