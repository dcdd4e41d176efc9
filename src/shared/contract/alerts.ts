import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { Id } from './ids.ts';

/**
 * Alerts: security events sent out as they happen, by email or to a signed webhook, to destinations an account
 * administrator configures (Settings → Alerts).
 */

/** What a destination can ask to hear of. */
export const AlertEventKind = deferred(() =>
  z.enum([
    /** A person reported a code or a new device from their phone ("This wasn't me"). */
    'CodeReported',
    /** A phone was enrolled and waits for an approver. */
    'DeviceWaiting',
    /** A device was approved for a person who holds Accounts permissions. */
    'DeviceApprovedForAdmin',
    /** An account's permissions changed. */
    'PermissionsChanged',
    /** An API account was created or its secret rotated. */
    'ApiAccountChanged',
    /** A person's sign-in methods (passkeys, recovery codes) were reset by an administrator. */
    'SignInMethodsReset',
    /** The helpdesk issued a temporary code to a person who lost their phone. */
    'TemporaryCodeIssued',
    /** Sign-ins to an account were refused for a while after too many failures. */
    'LockedOut',
  ]),
);
export type AlertEventKind = z.infer<typeof AlertEventKind>;

/**
 * How a destination is reached: email through SMTP_URL, a webhook signed the Standard Webhooks way, or a Slack or
 * Microsoft Teams incoming webhook (a chat message; those cannot check a signature).
 */
export const AlertChannel = deferred(() => z.enum(['Email', 'Webhook', 'Slack', 'Teams']));
export type AlertChannel = z.infer<typeof AlertChannel>;

export const ALERT_NAME_MAX = 100;
export const ALERT_TARGET_MAX = 2000;
/** Email recipients one destination may list. */
export const ALERT_RECIPIENTS_MAX = 20;

const AlertName = deferred(() =>
  z.string().check(z.trim(), z.minLength(1, 'Name must not be empty'), z.maxLength(ALERT_NAME_MAX)),
);
const AlertEvents = deferred(() =>
  z
    .array(AlertEventKind)
    .check(z.minLength(1, 'Choose at least one event'), z.maxLength(AlertEventKind.options.length)),
);

const AlertTarget = deferred(() =>
  z.string().check(z.trim(), z.minLength(1, 'Target must not be empty'), z.maxLength(ALERT_TARGET_MAX)),
);

/**
 * A new destination: for Email, `Target` is one or more addresses separated by commas; otherwise the URL to POST to
 * (https; private and loopback addresses only when the operator allows them with ALERT_WEBHOOK_ALLOW_ORIGINS).
 */
export const AlertDestinationInput = deferred(() =>
  z.object({
    Name: AlertName,
    Channel: AlertChannel,
    Target: AlertTarget,
    Events: AlertEvents,
  }),
);
export type AlertDestinationInput = z.infer<typeof AlertDestinationInput>;

/**
 * A change to a destination: its name, the events it wants, and optionally where it goes (`Target`, checked as when
 * it was added; left out, it stays: a webhook's URL is never answered whole, so it cannot be sent back unchanged). Its
 * channel stays; a Webhook keeps its signing secret.
 */
export const AlertDestinationUpdate = deferred(() =>
  z.object({
    Name: AlertName,
    Events: AlertEvents,
    Target: z.optional(AlertTarget),
  }),
);
export type AlertDestinationUpdate = z.infer<typeof AlertDestinationUpdate>;

export const AlertDestination = deferred(() =>
  z.object({
    Id,
    Name: z.string(),
    Channel: AlertChannel,
    /** Email addresses as given; a URL shown as its origin only (a chat webhook's path is its secret). */
    Target: z.string(),
    Events: z.array(AlertEventKind),
    /** Whether webhook-signature is sent (Webhook only); the secret itself is answered once, when made or rotated. */
    Signed: z.boolean(),
    /** Since when every attempt failed (several in a row): someone should look at it. Null while it works. */
    FailingSinceUtc: z.nullable(z.string()),
    /** Deliveries not yet made (waiting or being retried). */
    Pending: z.int(),
    LastDeliveredUtc: z.nullable(z.string()),
    CreatedTimestampUtc: z.string(),
    CreatedBy: z.string(),
  }),
);
export type AlertDestination = z.infer<typeof AlertDestination>;
export const AlertDestinationList = deferred(() => z.array(AlertDestination));

/** A destination as made or its secret rotated: the `whsec_` secret (Webhook only), shown this once. */
export const AlertDestinationWithSecret = deferred(() =>
  z.extend(AlertDestination, { Secret: z.nullable(z.string()) }),
);
export type AlertDestinationWithSecret = z.infer<typeof AlertDestinationWithSecret>;

/** Pending: waiting or retried with backoff; Delivered: the receiver answered 2xx; GaveUp: 24 hours of failures. */
export const AlertDeliveryStatus = deferred(() => z.enum(['Pending', 'Delivered', 'GaveUp']));
export type AlertDeliveryStatus = z.infer<typeof AlertDeliveryStatus>;

/** One alert to one destination: what the delivery log shows. */
export const AlertDelivery = deferred(() =>
  z.object({
    Id,
    /** The webhook-id: the same on every attempt, so a receiver can de-duplicate. */
    MessageId: z.string(),
    Event: AlertEventKind,
    /** The alert's one-line summary (never a code or a secret). */
    Summary: z.string(),
    Status: AlertDeliveryStatus,
    Attempts: z.int(),
    /** Why the last attempt failed, in words (an HTTP status, a refused connection). */
    LastError: z.nullable(z.string()),
    CreatedTimestampUtc: z.string(),
    NextAttemptUtc: z.nullable(z.string()),
    DeliveredUtc: z.nullable(z.string()),
  }),
);
export type AlertDelivery = z.infer<typeof AlertDelivery>;
export const AlertDeliveryList = deferred(() => z.array(AlertDelivery));
