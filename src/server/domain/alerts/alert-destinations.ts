import type { Kysely, Selectable } from 'kysely';
import {
  ALERT_RECIPIENTS_MAX,
  type AlertChannel,
  type AlertDestination,
  type AlertDestinationInput,
  type AlertDestinationUpdate,
  type AlertDestinationWithSecret,
  type AlertEventKind,
  AlertEventKind as AlertEventKindSchema,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import type { AlertDestinationTable, Database } from '../../db/schema.ts';
import { notFound, ProblemError } from '../../lib/problem-error.ts';
import type { Principal } from '../identity/principals.ts';
import { newWebhookSecret } from './webhook-sender.ts';
import { type WebhookUrlPolicy, webhookUrlCheck } from './webhook-url-policy.ts';

type Channel = AlertDestinationTable['channel'];
const CHANNELS: Record<AlertChannel, Channel> = { Email: 'email', Webhook: 'webhook', Slack: 'slack', Teams: 'teams' };
const CHANNEL_NAMES = Object.fromEntries(Object.entries(CHANNELS).map(([name, row]) => [row, name])) as Record<
  Channel,
  AlertChannel
>;

/** A plain email address: something@domain, no spaces or brackets (nothing a header could be made of). */
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

const invalid = (path: string, message: string) =>
  new ProblemError(400, 'validation', 'Invalid request', `${path}: ${message}`, {
    extensions: { errors: [{ path, message }] },
  });

/** In an Email destination's target: everyone who may approve devices (Security Write) and has an email address. */
export const APPROVERS = 'approvers';

/** The recipients an Email destination's target names (`approvers` among them, as it is). */
export const recipientsOf = (target: string) =>
  target
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);

/** The events a row wants (unknown names, from a later version, are skipped). */
export function eventsOf(row: Pick<AlertDestinationTable, 'events'>): AlertEventKind[] {
  const parsed: unknown = JSON.parse(row.events);
  return Array.isArray(parsed) ? parsed.filter((kind) => AlertEventKindSchema.safeParse(kind).success) : [];
}

/** A URL is shown by its origin: a chat webhook's path and query are its credential. */
function shownTarget(channel: Channel, target: string): string {
  if (channel === 'email') return target;
  try {
    return `${new URL(target).origin}/…`;
  } catch {
    return '…';
  }
}

export interface AlertDestinationOptions {
  db: Kysely<Database>;
  clock: () => Date;
  webhookPolicy: WebhookUrlPolicy;
  /** Whether SMTP_URL is set: without it an Email destination could never send. */
  emailConfigured: boolean;
}

/** The destinations themselves: adding (with the URL policy's check), renaming, removing, rotating secrets. */
export class AlertDestinations {
  private readonly o: AlertDestinationOptions;

  constructor(options: AlertDestinationOptions) {
    this.o = options;
  }

  async list(): Promise<AlertDestination[]> {
    const rows = await this.o.db.selectFrom('alert_destinations').selectAll().orderBy('id').execute();
    const pending = await this.o.db
      .selectFrom('alert_deliveries')
      .select(['destination_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', '=', 'pending')
      .groupBy('destination_id')
      .execute();
    const counts = new Map(pending.map((row) => [row.destination_id, Number(row.count)]));
    return rows.map((row) => this.shape(row, counts.get(row.id) ?? 0));
  }

  async get(id: number): Promise<AlertDestination> {
    const row = await this.row(id);
    const pending = await this.o.db
      .selectFrom('alert_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('destination_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return this.shape(row, Number(pending.count));
  }

  async create(input: AlertDestinationInput, actor: Principal): Promise<AlertDestinationWithSecret> {
    const channel = CHANNELS[input.Channel];
    const target = await this.checkedTarget(channel, input.Target);
    const secret = channel === 'webhook' ? newWebhookSecret() : null;
    const row = await this.o.db
      .insertInto('alert_destinations')
      .values({
        name: input.Name,
        channel,
        target,
        events: JSON.stringify([...new Set(input.Events)]),
        secret,
        created_at: formatTimestamp(this.o.clock()),
        created_by: actor.userName,
        failing_since: null,
        last_delivered_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...(await this.get(row.id)), Secret: secret };
  }

  async update(id: number, update: AlertDestinationUpdate): Promise<AlertDestination> {
    const row = await this.row(id);
    // A new address or URL is checked as when the destination was added (the webhook policy, the addresses).
    const target = update.Target === undefined ? row.target : await this.checkedTarget(row.channel, update.Target);
    await this.o.db
      .updateTable('alert_destinations')
      .set({ name: update.Name, events: JSON.stringify([...new Set(update.Events)]), target })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    await this.row(id);
    // Its deliveries go with it (the foreign key cascades, on SQLite too: deleted here explicitly to be sure).
    await this.o.db.deleteFrom('alert_deliveries').where('destination_id', '=', id).execute();
    await this.o.db.deleteFrom('alert_destinations').where('id', '=', id).execute();
  }

  async rotateSecret(id: number): Promise<AlertDestinationWithSecret> {
    const row = await this.row(id);
    if (row.channel !== 'webhook') {
      throw invalid(
        'id',
        `only a Webhook destination signs what it sends; ${row.name} is ${CHANNEL_NAMES[row.channel]}`,
      );
    }
    const secret = newWebhookSecret();
    await this.o.db.updateTable('alert_destinations').set({ secret }).where('id', '=', id).execute();
    return { ...(await this.get(id)), Secret: secret };
  }

  private async row(id: number) {
    const row = await this.o.db.selectFrom('alert_destinations').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Alert destination', id);
    return row;
  }

  private async checkedTarget(channel: Channel, target: string): Promise<string> {
    if (channel === 'email') {
      if (!this.o.emailConfigured) {
        throw invalid('Channel', 'email alerts need a mail server: the operator sets SMTP_URL first');
      }
      const recipients = recipientsOf(target);
      if (recipients.length === 0) throw invalid('Target', 'give at least one email address');
      if (recipients.length > ALERT_RECIPIENTS_MAX) {
        throw invalid('Target', `at most ${ALERT_RECIPIENTS_MAX} addresses per destination`);
      }
      const wrong = recipients.find((address) => address.toLowerCase() !== APPROVERS && !EMAIL.test(address));
      if (wrong) throw invalid('Target', `"${wrong}" is not an email address (nor "${APPROVERS}")`);
      return recipients.map((address) => (address.toLowerCase() === APPROVERS ? APPROVERS : address)).join(', ');
    }
    const check = await webhookUrlCheck(target, this.o.webhookPolicy);
    if (check.refusal !== null) throw invalid('Target', check.refusal);
    return target;
  }

  private shape(row: Selectable<AlertDestinationTable>, pending: number): AlertDestination {
    return {
      Id: row.id,
      Name: row.name,
      Channel: CHANNEL_NAMES[row.channel],
      Target: shownTarget(row.channel, row.target),
      Events: eventsOf(row),
      Signed: row.channel === 'webhook',
      FailingSinceUtc: row.failing_since,
      Pending: pending,
      LastDeliveredUtc: row.last_delivered_at,
      CreatedTimestampUtc: row.created_at,
      CreatedBy: row.created_by,
    };
  }
}
