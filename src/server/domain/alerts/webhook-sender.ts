import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { checkedLookup } from '../devices/push-endpoint-policy.ts';
import { type WebhookUrlPolicy, webhookUrlCheck } from './webhook-url-policy.ts';

/** A receiver that does not answer in this long has failed this attempt (it is retried later). */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: only its status matters. */
const ANSWER_MAX_BYTES = 4096;

/** A new signing secret in the Standard Webhooks shape: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export interface WebhookPost {
  url: string;
  body: string;
  /** The Standard Webhooks headers are added when a secret is given (a chat webhook has none). */
  signing: { secret: string; messageId: string; at: Date } | null;
}

/**
 * POSTs one webhook: checked against the policy first, connected to the very addresses checked, signed with
 * webhook-id, webhook-timestamp and webhook-signature (v1, HMAC-SHA256, by the standardwebhooks library).
 * Resolves on a 2xx answer; otherwise rejects with the reason in words.
 */
export async function postWebhook(post: WebhookPost, policy: WebhookUrlPolicy): Promise<void> {
  const check = await webhookUrlCheck(post.url, policy);
  if (check.refusal !== null) throw new Error(check.refusal);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Tachyon-Alerts/1',
  };
  if (post.signing) {
    const { secret, messageId, at } = post.signing;
    headers['webhook-id'] = messageId;
    headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(secret).sign(messageId, at, post.body);
  }
  const url = new URL(post.url);
  const send = url.protocol === 'https:' ? https.request : http.request;
  const status = await new Promise<number>((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(post.body)) },
        timeout: WEBHOOK_TIMEOUT_MS,
        ...(check.addresses ? { lookup: checkedLookup(check.addresses) } : {}),
      },
      (answer) => {
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_MAX_BYTES) answer.destroy();
        });
        answer.on('close', () => resolve(answer.statusCode ?? 0));
        answer.on('error', () => resolve(answer.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`)));
    request.on('error', (error) => reject(new Error(`could not reach ${url.host}: ${error.message}`)));
    request.end(post.body);
  });
  if (status < 200 || status > 299) throw new Error(`${url.host} answered HTTP ${status}`);
}
