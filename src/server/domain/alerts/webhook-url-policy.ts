import { addressRange, type HostLookup, systemLookup } from '../devices/push-endpoint-policy.ts';

/**
 * A webhook URL is an address an administrator typed that this service will POST to: the push endpoint policy's rules
 * hold for it too, so a destination cannot make the service call into its own network (cloud metadata, an admin
 * interface). Only https, no credentials in the URL, and only public addresses, unless the operator trusts the origin
 * (ALERT_WEBHOOK_ALLOW_ORIGINS: an internal receiver, a test's loopback one).
 */
export interface WebhookUrlPolicy {
  allowOrigins: readonly string[];
  lookup?: HostLookup;
}

/** Why a URL is refused, or the addresses it was checked at (null: a trusted origin, connected to as named). */
export type WebhookUrlCheck = { refusal: string } | { refusal: null; addresses: readonly string[] | null };

/** The policy's verdict, asked when a destination is added and again before each delivery (DNS answers change). */
export async function webhookUrlCheck(target: string, policy: WebhookUrlPolicy): Promise<WebhookUrlCheck> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { refusal: 'The webhook URL is not a URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { refusal: 'A webhook URL must use https.' };
  if (url.username || url.password) return { refusal: 'A webhook URL may not carry a user name or password.' };
  if (policy.allowOrigins.includes(url.origin)) return { refusal: null, addresses: null };
  if (url.protocol !== 'https:') return { refusal: 'A webhook URL must use https.' };
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  let addresses: string[];
  try {
    addresses = await (policy.lookup ?? systemLookup)(host);
  } catch {
    return { refusal: `${host} does not resolve.` };
  }
  if (addresses.length === 0) return { refusal: `${host} does not resolve.` };
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== 'unicast') {
      return {
        refusal:
          `${host} resolves to ${address}, a ${range} address this service never sends to. ` +
          'An operator can allow an internal receiver with ALERT_WEBHOOK_ALLOW_ORIGINS.',
      };
    }
  }
  return { refusal: null, addresses };
}
