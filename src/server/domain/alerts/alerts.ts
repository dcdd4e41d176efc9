import type { Kysely, Transaction } from 'kysely';
import type { AuditEvent } from '../../audit/audit-event.ts';
import type { AuditLog } from '../../audit/audit-log.ts';
import type { Dialect } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { systemClock } from '../../lib/clock.ts';
import { AlertDestinations, APPROVERS, recipientsOf } from './alert-destinations.ts';
import { alertEmail, slackBody, teamsBody, webhookBody } from './alert-messages.ts';
import { AlertOutbox, type ClaimedDelivery } from './alert-outbox.ts';
import { AlertRules } from './alert-rules.ts';
import { EmailSender, type EmailSettings } from './email-sender.ts';
import { postWebhook } from './webhook-sender.ts';
import type { WebhookUrlPolicy } from './webhook-url-policy.ts';

/** How often the outbox is looked at for due deliveries (also those other processes queued, or retries). */
const POLL_MS = 1_000;
/** Deliveries claimed at once (at most one per destination). */
const CLAIM_LIMIT = 20;

export interface AlertServiceOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: () => Date;
  audit: AuditLog;
  /** PUBLIC_URL: the links in alerts lead there. */
  publicUrl: string;
  webhookPolicy: WebhookUrlPolicy;
  /** SMTP_URL and SMTP_FROM; null: no email alerts. */
  email: EmailSettings | null;
  /** Where a failure of the machinery itself is told (a database error while queueing). */
  warn: (error: unknown, message: string) => void;
}

/**
 * Alerts, end to end: it writes with the audit stream's events, turning those its rules name into alerts and queueing
 * one delivery per destination wanting it (alert-outbox.ts) in the transaction of the change the event records (so
 * both commit or neither), and sends them in the background, so a slow receiver never holds up the request that
 * caused the event.
 */
export class AlertService {
  readonly destinations: AlertDestinations;
  readonly outbox: AlertOutbox;
  private readonly rules: AlertRules;
  private readonly email: EmailSender | null;
  /** Alerts were queued in a change's transaction: the sender looks again once it has committed (an event follows). */
  private queued = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  private readonly o: AlertServiceOptions;

  constructor(options: AlertServiceOptions) {
    const o = options;
    this.o = o;
    this.rules = new AlertRules(o.db);
    this.outbox = new AlertOutbox(o.db, o.dialect, o.clock);
    this.email = o.email ? new EmailSender(o.email) : null;
    this.destinations = new AlertDestinations({
      db: o.db,
      clock: o.clock,
      webhookPolicy: o.webhookPolicy,
      emailConfigured: o.email !== null,
    });
    o.audit.writeWith((event, at, trx) => this.queue(event, at, trx));
    o.audit.listen(() => {
      if (!this.queued) return;
      this.queued = false;
      this.wake();
    });
  }

  /** Starts sending: now, then every POLL_MS and whenever an alert is queued. */
  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Stops sending, once what was heard is queued and the attempts under way have ended. */
  async stop(): Promise<void> {
    await this.o.audit.settled();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.email?.close();
  }

  /**
   * The event's alert, if its rules make one, queued in `trx`, the change's own transaction (read as the change left
   * it): a failure there is thrown, so the change rolls back with it. Without a change (a refused sign-in), queued
   * on its own, and a failure only reported.
   */
  private async queue(event: AuditEvent, at: Date, trx: Transaction<Database> | null): Promise<void> {
    if (trx) {
      const alert = await this.rules.alertOf(event, at, trx);
      if (alert && (await this.outbox.enqueue(alert, trx)) > 0) this.queued = true;
      return;
    }
    try {
      const alert = await this.rules.alertOf(event, at);
      if (alert && (await this.outbox.enqueue(alert)) > 0) this.wake();
    } catch (error) {
      this.o.warn(error, 'alerts: an event could not be queued');
    }
  }

  /** Sends what is due now (again at once if something was queued meanwhile), then waits POLL_MS. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.sendDue()
      .catch((error: unknown) => this.o.warn(error, 'alerts: the outbox could not be read'))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), POLL_MS);
        this.timer.unref();
      });
  }

  private async sendDue(): Promise<void> {
    for (;;) {
      const claimed = await this.outbox.claim(CLAIM_LIMIT);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      if (this.stopped) return;
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    let failure: string | null = null;
    try {
      await this.send(delivery);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const event = {
      action: 'alert-sent',
      entity: { type: 'AlertDestination', id: delivery.destinationId },
      details: { messageId: delivery.messageId, alert: delivery.alert.kind, attempts: delivery.attempts },
    } as const;
    if (failure === null) {
      await this.outbox.delivered(delivery);
      this.o.audit.record({ ...event, outcome: 'success' });
      return;
    }
    if ((await this.outbox.failed(delivery, failure)) === 'gave-up') {
      this.o.audit.record({ ...event, outcome: 'failure', reason: 'gave-up' });
    }
  }

  /** An Email destination's addresses, `approvers` read as they are now (who may approve changes). */
  private async recipients(target: string): Promise<string[]> {
    const named = recipientsOf(target);
    if (!named.includes(APPROVERS)) return named;
    const approvers = await this.o.db
      .selectFrom('principals')
      .innerJoin('permission_grants', 'permission_grants.principal_id', 'principals.id')
      .select('principals.email')
      .where('permission_grants.entity', '=', 'Security')
      .where('permission_grants.permission', '=', 'Write')
      .where('principals.enabled', '=', 1)
      .where('principals.email', 'is not', null)
      .orderBy('principals.id')
      .execute();
    const addresses = [
      ...new Set([
        ...named.filter((address) => address !== APPROVERS),
        ...approvers.flatMap((row) => (row.email ? [row.email] : [])),
      ]),
    ];
    if (addresses.length === 0) throw new Error('nobody who may approve devices has an email address');
    return addresses;
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const { alert, channel, target } = delivery;
    const { publicUrl } = this.o;
    if (channel === 'email') {
      if (!this.email) throw new Error('SMTP_URL is not set: email alerts cannot be sent');
      await this.email.send(await this.recipients(target), alertEmail(alert, publicUrl), delivery.messageId);
      return;
    }
    const body =
      channel === 'slack'
        ? slackBody(alert, publicUrl)
        : channel === 'teams'
          ? teamsBody(alert, publicUrl)
          : webhookBody(alert, publicUrl);
    const signing =
      channel === 'webhook' && delivery.secret
        ? // The receiver compares webhook-timestamp with its own clock: it is the moment on the wire.
          { secret: delivery.secret, messageId: delivery.messageId, at: systemClock() }
        : null;
    await postWebhook({ url: target, body, signing }, this.o.webhookPolicy);
  }
}
