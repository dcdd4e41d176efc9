/** Whether an address points at the machine it is opened on (localhost, 127.x, ::1): another device cannot open it. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}

/**
 * Where passkeys can work, for a page opened at an IP address (`http://127.0.0.1:3000/sign-in-methods`), where every
 * browser refuses them: the same page at localhost for a loopback address (the service's default PUBLIC_URL), null
 * for another IP address (only its administrator knows its name); undefined when the page is at a name already.
 */
export function passkeyAddressFor(url: string): string | null | undefined {
  const page = new URL(url);
  const host = page.hostname.replace(/^\[|\]$/g, '');
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');
  if (!ip) return undefined;
  if (!isLoopbackUrl(url)) return null;
  page.hostname = 'localhost';
  return page.href;
}
