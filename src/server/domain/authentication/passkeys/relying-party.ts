import { isIP } from 'node:net';

/** Who passkeys are made for: the relying party's ID (a host name) and the origins a browser may answer from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  /** Null when passkeys work; otherwise why they cannot (browsers refuse passkeys for an IP address). */
  unavailable: string | null;
}

/**
 * The relying party from PUBLIC_URL, the address people open the service at: its host name is the RP ID, its origin
 * the only origin accepted (an assertion made for another site, or another port, is refused).
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return {
    id: host,
    name: 'Tachyon Consumer',
    origins: [url.origin],
    unavailable:
      isIP(host) !== 0
        ? `Passkeys need the service to be opened by a name, not an IP address (${host}): browsers refuse them ` +
          'there. Set PUBLIC_URL to the name people open it at (on this machine, http://localhost:PORT).'
        : null,
  };
}

/**
 * Why a passkey cannot be made or used from a page at `origin` (the browser's Origin header), or null when it can:
 * passkeys belong to PUBLIC_URL's address, so a dashboard opened at another (the IP address the service listens on)
 * is told where to go instead of meeting the browser's "invalid domain". No Origin (a script): nothing to judge.
 */
export function passkeysElsewhere(rp: RelyingParty, origin: string | undefined): string | null {
  if (!origin || rp.unavailable !== null || rp.origins.includes(origin)) return null;
  const home = rp.origins[0];
  return `Passkeys work only at ${home}, the address this service is set up for (PUBLIC_URL), not at ${origin}. Open ${home}/ and sign in there.`;
}
