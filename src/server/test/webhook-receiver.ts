import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver took, with whether its Standard Webhooks signature checked out. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The hand-made check below against the secret the receiver was given; null without one. */
  signatureValid: boolean | null;
}

/**
 * Standard Webhooks' v1 signature checked by hand, independently of the sender's library: HMAC-SHA256 keyed with the
 * base64 after `whsec_`, over `id.timestamp.body`, base64, among the space-separated `v1,…` entries.
 */
export function signatureChecks(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A webhook receiver on loopback: it records every POST, answers `status` (200 unless told otherwise; it can also
 * hold answers back), and checks signatures with `secret` when it has one.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  status = 200;
  /** Milliseconds each answer waits (a slow receiver). */
  delayMs = 0;
  secret: string | null = null;
  private readonly server: http.Server;
  private waiters: Array<() => void> = [];

  private constructor(server: http.Server) {
    this.server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const self = receiver as WebhookReceiver;
        const body = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          const status = self.status;
          if (status >= 200 && status < 300) {
            self.received.push({
              path: request.url ?? '',
              headers: request.headers,
              body,
              signatureValid: self.secret === null ? null : signatureChecks(self.secret, request.headers, body),
            });
            for (const wake of self.waiters.splice(0)) wake();
          }
          response.writeHead(status).end();
        }, self.delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server);
    return receiver;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` webhooks were taken (2xx), or rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`received ${this.received.length} webhooks, waited for ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
