import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under. One IPv6 host usually holds a whole /64 and can pick any address
 * in it, so IPv6 clients count by their /64; IPv4 (also written as IPv4-mapped IPv6) counts per address.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
