import { createECDH, createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Counter, Registry } from 'prom-client';
import webPush, { type RequestDetails } from 'web-push';
import type { WebPushPayload } from '../../shared/contract/index.ts';
import type {
  DeviceNoticeMessage,
  TokenPushMessage,
  TokenPushSender,
  TokenPushTarget,
} from '../domain/delivery/token-delivery.ts';
import { checkedLookup, type PushEndpointCheck } from '../domain/devices/push-endpoint-policy.ts';
import { type Clock, systemClock } from '../lib/clock.ts';

/**
 * RFC 8291 §4: a push message is one 4,096-byte record; less its header (86), the AEAD tag (16) and the padding
 * delimiter (1), 3,993 bytes of plaintext remain. Push services refuse more.
 */
export const MAX_PAYLOAD_BYTES = 3993;

export const DEFAULT_PUSH_TIMEOUT_MS = 10_000;

export const PUSH_METRIC_NAME = 'tachyon_web_push_total';

/** A notice of a new device is worth delivering for a day; a phone off longer sees it in the app. */
const NOTICE_TTL_HOURS = 24;
/** A name in a notice (the new device's, the helpdesk's), in graphemes: a lock screen shows a line or two. */
const NOTICE_DEVICE_MAX = 120;

/** A push service's own explanation is kept only this long, for the log: enough for FCM's or Apple's reason. */
const MAX_ANSWER_TEXT = 300;

/**
 * A device chooses its endpoint, so the host label's values come from outside: past this many distinct hosts the
 * rest are counted as `other`, and a device cannot grow the metrics without bound.
 */
const MAX_HOST_LABELS = 50;

export type PushOutcome =
  /** 2xx: the push service took the message (RFC 8030: accepted, not yet delivered). */
  | 'accepted'
  /** 404 or 410: the subscription is gone; it was removed. */
  | 'gone'
  /** 429: the push service asked to wait (counted for the 429 itself, retried or not). */
  | 'rate-limited'
  /** 413: the push service found the message too large, which the size check should have prevented. */
  | 'too-large'
  /** 400, 401 or 403: the push service refused our VAPID credentials. */
  | 'vapid-rejected'
  /** Any other answer: a redirect (never followed), another 4xx, a 5xx. */
  | 'rejected'
  | 'timeout'
  | 'network-error'
  /** The endpoint policy refused the address right before sending. */
  | 'refused'
  /** The token ran out before it could be sent. */
  | 'expired'
  /** The subscription's keys could not be used to encrypt. */
  | 'invalid-subscription'
  /** The payload did not fit even with the instruction's name cut to nothing. */
  | 'payload-too-large';

export interface PushResult {
  deviceId: number;
  /** The push service's host (the metrics' label). */
  host: string;
  /** The final outcome: after a retried 429, the retry's. */
  outcome: PushOutcome;
  /** The last HTTP status the push service answered, null when none did. */
  status: number | null;
  /** Requests sent: 0 when nothing was sent, 2 after a 429 that was retried. */
  attempts: number;
}

export interface PushLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface WebPushSenderOptions {
  /** Base64url keys as web-push's generateVAPIDKeys gives them; the subject is a `mailto:` or `https:` URL. */
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** The absolute URL of the device app (`…/device`): where a tap on the notification leads. */
  deviceAppUrl: string;
  /**
   * The endpoint policy: a reason to refuse, or the addresses it checked. Asked again before every request, since DNS
   * may change; the request then connects to an address it checked, never to what a second lookup would answer.
   */
  checkEndpoint: (endpoint: string) => Promise<PushEndpointCheck>;
  /** Removes one subscription the push service called gone (404/410). */
  onGone: (deviceId: number, endpoint: string) => Promise<void>;
  log: PushLog;
  clock?: Clock;
  /** Where the outcome counter is registered (the service's metrics); a private registry otherwise. */
  registry?: Registry;
  /** Each request's whole time, from connecting to the answer's end. */
  timeoutMs?: number;
  /** Shared keep-alive agents; created (and destroyed by close()) when absent. */
  agents?: { https?: https.Agent; http?: http.Agent };
  /** A DNS lookup for new connections, e.g. one that refuses private addresses at connect time too. */
  lookup?: LookupFunction;
  /** The zone of the "valid until" time in the notification; the process's zone otherwise. */
  timeZone?: string;
}

type Answer =
  | { kind: 'answer'; status: number; headers: http.IncomingHttpHeaders; text: string }
  | { kind: 'timeout' }
  | { kind: 'error'; code: string };

/** Seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * Lock screens show the title as it is: control characters and bidirectional overrides could make it read as
 * something else, so they go, and runs of white space become one space.
 */
function visibleText(text: string): string {
  return text
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Visible text only, cut to NOTICE_DEVICE_MAX graphemes. */
function shortened(text: string): string {
  const parts = Array.from(graphemes.segment(visibleText(text)), (part) => part.segment);
  return parts.length > NOTICE_DEVICE_MAX ? `${parts.slice(0, NOTICE_DEVICE_MAX).join('')}…` : parts.join('');
}

/**
 * Sends each new two-factor token to a person's subscribed devices by Web Push. web-push builds each request
 * (the VAPID JWT, the aes128gcm encryption); the request itself is made here so that the time-out, the endpoint
 * policy, redirects (never followed) and the metrics are this service's.
 */
export class WebPushSender implements TokenPushSender {
  private readonly vapid: WebPushSenderOptions['vapid'];
  private readonly deviceAppUrl: string;
  private readonly checkEndpoint: WebPushSenderOptions['checkEndpoint'];
  private readonly onGone: WebPushSenderOptions['onGone'];
  private readonly log: PushLog;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly httpsAgent: https.Agent;
  private readonly httpAgent: http.Agent;
  private readonly ownedAgents: Array<http.Agent>;
  private readonly lookup: LookupFunction | undefined;
  private readonly timeFormat: Intl.DateTimeFormat;
  private readonly timeSuffix: string;
  private readonly counter: Counter<'host' | 'outcome'>;
  private readonly hostLabels = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  /** Wakes every wait for a Retry-After, so close() need not wait for them. */
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  constructor(options: WebPushSenderOptions) {
    checkVapidKeys(options.vapid);
    const appUrl = new URL(options.deviceAppUrl);
    if (appUrl.protocol !== 'https:' && appUrl.protocol !== 'http:') {
      throw new Error(`deviceAppUrl must be an http(s) URL: ${options.deviceAppUrl}`);
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`timeoutMs must be a positive integer`);
    this.vapid = options.vapid;
    this.deviceAppUrl = appUrl.href;
    this.checkEndpoint = options.checkEndpoint;
    this.onGone = options.onGone;
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = timeoutMs;
    this.lookup = options.lookup;
    this.ownedAgents = [];
    this.httpsAgent = options.agents?.https ?? this.own(new https.Agent({ keepAlive: true, maxSockets: 50 }));
    this.httpAgent = options.agents?.http ?? this.own(new http.Agent({ keepAlive: true, maxSockets: 50 }));
    this.timeFormat = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
    // The phone may be in another zone than the server: a bare "10:42" in UTC would be read as local time.
    this.timeSuffix = this.timeFormat.resolvedOptions().timeZone === 'UTC' ? ' UTC' : '';
    const registry = options.registry ?? new Registry();
    const existing = registry.getSingleMetric(PUSH_METRIC_NAME);
    this.counter =
      existing instanceof Counter
        ? (existing as Counter<'host' | 'outcome'>)
        : new Counter({
            name: PUSH_METRIC_NAME,
            help: 'Web Push attempts by push service host and outcome (a retried 429 counts as rate-limited, then its retry counts)',
            labelNames: ['host', 'outcome'] as const,
            registers: [registry],
          });
  }

  send(targets: readonly TokenPushTarget[], message: TokenPushMessage): void {
    if (this.closed || targets.length === 0) return;
    this.start(() => this.sendNow(targets, message));
  }

  sendNotice(targets: readonly TokenPushTarget[], notice: DeviceNoticeMessage): void {
    if (this.closed || targets.length === 0) return;
    this.start(() => this.sendNoticeNow(targets, notice));
  }

  private start(work: () => Promise<unknown>): void {
    // Encrypting is synchronous work: it starts on a later turn so the caller's answer goes out first.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error }, 'web push: sending failed unexpectedly'),
      )
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /** One push per target, all at once; resolves with each target's outcome and never rejects. */
  async sendNow(targets: readonly TokenPushTarget[], message: TokenPushMessage): Promise<PushResult[]> {
    const payload = targets.length > 0 ? this.payload(message) : null;
    const about = { instructionId: message.instructionId };
    return Promise.all(
      targets.map((target) =>
        this.deliver(target, { expires: message.expires, about, topic: this.topicFor(target.deviceId) }, payload),
      ),
    );
  }

  /** A device notice: one push per target, worth delivering for NOTICE_TTL_HOURS. */
  async sendNoticeNow(targets: readonly TokenPushTarget[], notice: DeviceNoticeMessage): Promise<PushResult[]> {
    const payload = this.noticePayload(notice);
    const expires = new Date(notice.at.getTime() + NOTICE_TTL_HOURS * 3_600_000);
    if (notice.kind === 'temporary-code') {
      const about = { notice: notice.kind, temporaryCodeId: notice.temporaryCodeId };
      // Per code: never replaces a sign-in code waiting, nor a device's notice.
      const topic = this.topicFor(notice.temporaryCodeId, 'temporary code notice');
      return Promise.all(targets.map((target) => this.deliver(target, { expires, about, topic }, payload)));
    }
    const about = { notice: notice.kind, authorizationRequestId: notice.authorizationRequestId };
    // Per enrolment: "approved" replaces its own "enrolled" still waiting, never a code nor another device's notice.
    const topic = this.topicFor(notice.authorizationRequestId, 'device notice');
    return Promise.all(targets.map((target) => this.deliver(target, { expires, about, topic }, payload)));
  }

  /** Resolves when every push that send() started has ended (retries included). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Stops new pushes, skips pending retries and closes the agents this sender made. */
  close(): void {
    this.closed = true;
    for (const wake of this.sleepers) wake();
    for (const agent of this.ownedAgents) agent.destroy();
  }

  /**
   * The Topic header: per device, so a newer code replaces one still waiting (a notice's, per enrolment); keyed, so it
   * does not reveal the id.
   */
  topicFor(id: number, what = 'web push topic'): string {
    return createHmac('sha256', this.vapid.privateKey).update(`${what} ${id}`).digest('base64url').slice(0, 22);
  }

  /**
   * The declarative push message (RFC 8030 `web_push`), cut to MAX_PAYLOAD_BYTES by shortening the name only. Its
   * shape is the contract's `WebPushPayload`, which the device app's service worker parses: never the code.
   */
  payload(message: TokenPushMessage): string | null {
    const body = `valid until ${this.timeFormat.format(message.expires)}${this.timeSuffix}`;
    const build = (name: string) =>
      JSON.stringify({
        web_push: 8030,
        notification: {
          title: message.dashboard ? name : name ? `Sign-in code for ${name}` : 'Sign-in code',
          body,
          navigate: this.deviceAppUrl,
          tag: `instruction-${message.instructionId}`,
        },
      } satisfies WebPushPayload);
    const fits = (json: string) => Buffer.byteLength(json, 'utf8') <= MAX_PAYLOAD_BYTES;
    const name = visibleText(message.name);
    const full = build(name);
    if (fits(full)) return full;
    // Cut at grapheme boundaries (never inside an emoji or a combining sequence); the longest cut that fits.
    const parts = Array.from(graphemes.segment(name), (part) => part.segment);
    let best: string | null = null;
    let low = 0;
    let high = parts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const candidate = build(`${parts.slice(0, middle).join('')}…`);
      if (fits(candidate)) {
        best = candidate;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (best === null) {
      this.log.error(
        { instructionId: message.instructionId, bytes: Buffer.byteLength(full, 'utf8') },
        'web push: the message does not fit in a push even without the instruction name; not sent',
      );
    }
    return best;
  }

  /**
   * A notice's declarative push message: what was added, when, and where to say it was not the person; for a
   * temporary code, who issued it and until when it works (never the code: a lock screen shows this).
   */
  noticePayload(notice: DeviceNoticeMessage): string {
    const when = `${this.timeFormat.format(notice.at)}${this.timeSuffix}`;
    if (notice.kind === 'temporary-code') {
      const until = `${this.timeFormat.format(notice.validUntil)}${this.timeSuffix}`;
      return JSON.stringify({
        web_push: 8030,
        notification: {
          title: 'A temporary code was issued for you',
          body: `By ${shortened(notice.issuedBy) || 'your helpdesk'} at ${when}, valid until ${until}. Not you who asked? Call your helpdesk.`,
          navigate: this.deviceAppUrl,
          tag: `temporary-code-notice-${notice.temporaryCodeId}`,
        },
      } satisfies WebPushPayload);
    }
    const named = shortened(notice.device);
    return JSON.stringify({
      web_push: 8030,
      notification: {
        title: notice.kind === 'approved' ? 'A new device was approved for you' : 'A new device was added for you',
        body: `${named || 'A device'}, at ${when}. Not you? Open Tachyon and tap "This wasn't me".`,
        navigate: this.deviceAppUrl,
        tag: `device-notice-${notice.authorizationRequestId}`,
      },
    } satisfies WebPushPayload);
  }

  private own<T extends http.Agent>(agent: T): T {
    this.ownedAgents.push(agent);
    return agent;
  }

  private async deliver(
    target: TokenPushTarget,
    message: { expires: Date; about: object; topic: string },
    payload: string | null,
  ): Promise<PushResult> {
    const { deviceId, subscription } = target;
    const url = URL.canParse(subscription.endpoint) ? new URL(subscription.endpoint) : null;
    const result: PushResult = {
      deviceId,
      host: url ? this.hostLabel(url.host) : 'invalid',
      outcome: 'refused',
      status: null,
      attempts: 0,
    };
    // Never the endpoint itself (it is a capability) nor the token: the host says enough.
    const about = { deviceId, ...message.about, host: result.host };
    const end = (outcome: PushOutcome): PushResult => {
      result.outcome = outcome;
      this.counter.inc({ host: result.host, outcome });
      return result;
    };
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      this.log.warn(about, 'web push: the endpoint is not an http(s) URL; not sent');
      return end('refused');
    }
    if (payload === null) return end('payload-too-large');

    let retried = false;
    for (;;) {
      const ttl = this.remainingSeconds(message.expires);
      if (ttl < 1) {
        this.log.info(about, 'web push: the message expired before it could be sent; not sent');
        return end('expired');
      }
      const { refusal, addresses } = await this.check(subscription.endpoint);
      if (refusal !== null) {
        this.log.warn(
          { ...about, reason: refusal },
          'web push: the endpoint policy refused the push service; not sent',
        );
        return end('refused');
      }
      let details: RequestDetails;
      try {
        details = webPush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          payload,
          {
            vapidDetails: this.vapid,
            TTL: ttl,
            urgency: 'high',
            topic: message.topic,
            contentEncoding: 'aes128gcm',
          },
        );
      } catch (error) {
        this.log.warn(
          { ...about, reason: errorText(error) },
          'web push: the subscription keys cannot be used; not sent',
        );
        return end('invalid-subscription');
      }

      result.attempts += 1;
      const answer = await this.post(url, details, addresses);
      if (answer.kind === 'timeout') {
        this.log.warn({ ...about, timeoutMs: this.timeoutMs }, 'web push: the push service did not answer in time');
        return end('timeout');
      }
      if (answer.kind === 'error') {
        this.log.warn({ ...about, code: answer.code }, 'web push: the push service could not be reached');
        return end('network-error');
      }
      const { status } = answer;
      result.status = status;
      const said = { ...about, status, answer: answer.text };
      if (status >= 200 && status < 300) return end('accepted');
      if (status === 404 || status === 410) {
        this.log.info({ ...about, status }, 'web push: the subscription is gone; removing it');
        try {
          await this.onGone(deviceId, subscription.endpoint);
        } catch (error) {
          this.log.error({ ...about, err: error }, 'web push: removing a gone subscription failed');
        }
        return end('gone');
      }
      if (status === 429) {
        const header = answer.headers['retry-after'];
        const wait = retryAfterMs(Array.isArray(header) ? header[0] : header, this.clock());
        const stillValid =
          wait !== null && message.expires.getTime() - (this.clock().getTime() + wait) >= 1000 && !this.closed;
        if (retried || !stillValid) {
          this.log.warn(
            { ...said, retryAfter: header ?? null },
            retried
              ? 'web push: the push service is still rate limiting after one retry; not retried again'
              : 'web push: the push service is rate limiting and the token would expire first (or it gave no Retry-After); not retried',
          );
          return end('rate-limited');
        }
        this.counter.inc({ host: result.host, outcome: 'rate-limited' });
        this.log.info(
          { ...said, waitMs: wait },
          'web push: the push service is rate limiting; retrying once after Retry-After',
        );
        retried = true;
        if (!(await this.sleep(wait))) {
          // Closing: the 429 is already counted; the retry is dropped.
          result.outcome = 'rate-limited';
          return result;
        }
        continue;
      }
      if (status === 413) {
        this.log.error(said, 'web push: the push service found the message too large (a defect: the size is checked)');
        return end('too-large');
      }
      if (status === 400 || status === 401 || status === 403) {
        this.log.error(
          said,
          'web push: the push service REFUSED OUR VAPID CREDENTIALS; check VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (no subscription removed)',
        );
        return end('vapid-rejected');
      }
      this.log.warn(said, 'web push: the push service did not accept the message');
      return end('rejected');
    }
  }

  /** The token's remaining life in whole seconds: never more than it has. */
  private remainingSeconds(expires: Date): number {
    return Math.floor((expires.getTime() - this.clock().getTime()) / 1000);
  }

  /** The policy failing counts as a refusal: an address nobody could check is not called. */
  private async check(endpoint: string): Promise<PushEndpointCheck> {
    try {
      return await this.checkEndpoint(endpoint);
    } catch (error) {
      return { refusal: `the endpoint could not be checked: ${errorText(error)}` };
    }
  }

  private hostLabel(host: string): string {
    if (this.hostLabels.has(host)) return host;
    if (this.hostLabels.size >= MAX_HOST_LABELS) return 'other';
    this.hostLabels.add(host);
    return host;
  }

  /** Resolves true after `ms`, or false at once when the sender closes. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.sleepers.delete(wake);
        resolve(true);
      }, ms);
      timer.unref();
      this.sleepers.add(wake);
    });
  }

  /** One POST, redirects not followed, ended by `timeoutMs` whatever stage it is at. */
  private post(url: URL, details: RequestDetails, checked: readonly string[] | null): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      let settled = false;
      let answered: Answer | null = null;
      const settle = (answer: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const secure = url.protocol === 'https:';
      const options: http.RequestOptions = {
        method: details.method,
        headers: details.headers,
        agent: secure ? this.httpsAgent : this.httpAgent,
        ...(checked ? { lookup: checkedLookup(checked) } : this.lookup ? { lookup: this.lookup } : {}),
      };
      const request = (secure ? https.request : http.request)(url, options, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = (): Answer => ({
          kind: 'answer',
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_TEXT),
        });
        answered = answer();
        // The body is read (and mostly dropped) so the keep-alive connection can serve the next push.
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_TEXT) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => settle(answer()));
        // Cut short after the status arrived: the status is still the push service's answer.
        response.on('close', () => settle(answer()));
        response.on('error', () => undefined);
      });
      const timer = setTimeout(() => {
        request.destroy();
        settle(answered ?? { kind: 'timeout' });
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) =>
        settle({ kind: 'error', code: error.code ?? error.message }),
      );
      request.end(details.body ?? undefined);
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A mismatched pair signs JWTs no push service accepts: refuse it at start rather than at every push. */
function checkVapidKeys(vapid: WebPushSenderOptions['vapid']): void {
  // web-push validates the subject's scheme and both keys' sizes.
  webPush.getVapidHeaders('https://push.invalid', vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(vapid.privateKey, 'base64url'));
  if (ecdh.getPublicKey('base64url', 'uncompressed') !== vapid.publicKey) {
    throw new Error('VAPID public key does not belong to the VAPID private key');
  }
}
