import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * A push endpoint is an address a device chose that this service will send requests to: without a policy, any
 * enrolled device could make the service call into its own network (cloud metadata, an admin interface). By default
 * only the browsers' push services are accepted, over https on port 443, resolving to public addresses only.
 */
const PUSH_SERVICE_HOSTS: ReadonlyArray<{ host: string; subdomains: boolean }> = [
  { host: 'push.apple.com', subdomains: true },
  { host: 'fcm.googleapis.com', subdomains: false },
  { host: 'android.googleapis.com', subdomains: false },
  { host: 'updates.push.services.mozilla.com', subdomains: false },
  { host: 'notify.windows.com', subdomains: true },
];

/** Every address a host name resolves to. */
export type HostLookup = (host: string) => Promise<string[]>;

export const systemLookup: HostLookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface PushEndpointPolicy {
  /** PUSH_ALLOW_ORIGINS: origins trusted as they are (http and private or loopback addresses included). */
  allowOrigins: readonly string[];
  lookup?: HostLookup;
}

const isKnownPushService = (host: string) =>
  PUSH_SERVICE_HOSTS.some((entry) => host === entry.host || (entry.subdomains && host.endsWith(`.${entry.host}`)));

/**
 * What the policy found: why an endpoint is refused (in words for the device's person and the log), or that it may be
 * used, with the addresses it checked. A push connects to those very addresses, so DNS cannot answer differently
 * between the check and the connection; null for an origin PUSH_ALLOW_ORIGINS trusts as it is.
 */
export type PushEndpointCheck =
  | { refusal: string; addresses?: undefined }
  | { refusal: null; addresses: readonly string[] | null };

/** Why a push endpoint is refused; null when it may be used. Asked when a subscription is stored. */
export async function pushEndpointRefusal(endpoint: string, policy: PushEndpointPolicy): Promise<string | null> {
  return (await pushEndpointCheck(endpoint, policy)).refusal;
}

/** The policy's verdict on an endpoint, asked before each push (DNS answers change), with the addresses checked. */
export async function pushEndpointCheck(endpoint: string, policy: PushEndpointPolicy): Promise<PushEndpointCheck> {
  const refusal = (text: string) => ({ refusal: text });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return refusal('The push endpoint is not a URL.');
  }
  if (url.username || url.password) return refusal('A push endpoint may not carry a user name or password.');
  // An origin the operator listed is theirs to trust: an on-premises push service, a test receiver.
  if (policy.allowOrigins.includes(url.origin)) return { refusal: null, addresses: null };
  const host = url.hostname.toLowerCase();
  if (!isKnownPushService(host)) {
    return refusal(
      `${host} is not a push service this service sends to (Apple, Google, Mozilla or Microsoft's). ` +
        'An operator can allow others with PUSH_ALLOW_ORIGINS.',
    );
  }
  if (url.protocol !== 'https:') return refusal('A push endpoint must use https.');
  // URL drops the port when it is the scheme's default, so an empty port is 443 here.
  if (url.port !== '') return refusal('A push endpoint must use port 443.');
  let addresses: string[];
  try {
    addresses = await (policy.lookup ?? systemLookup)(host);
  } catch {
    return refusal(`${host} does not resolve.`);
  }
  if (addresses.length === 0) return refusal(`${host} does not resolve.`);
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== 'unicast') {
      return refusal(`${host} resolves to ${address}, a ${range} address this service never sends to.`);
    }
  }
  return { refusal: null, addresses };
}

/**
 * ipaddr.js's name for the range an address is in ('unicast' for ordinary public addresses): loopback, private,
 * link-local (cloud metadata lives there), unique-local, unspecified and the rest are refused alike. An IPv4 address
 * written as IPv6 is judged as the IPv4 address it is.
 */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'unreadable';
  return ipaddr.process(address).range();
}

/**
 * A DNS lookup that answers only the addresses the endpoint policy checked: the connection goes to one of them, so a
 * name that resolves to a public address for the check and to a private one a moment later reaches nothing inside.
 */
export function checkedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  return (_hostname, options, callback) => {
    const first = entries[0];
    if (!first) {
      callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    if (options.all) (callback as unknown as (error: null, all: typeof entries) => void)(null, entries);
    else callback(null, first.address, first.family);
  };
}
