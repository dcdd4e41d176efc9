import path from 'node:path';
import type { TlsFiles } from './http/listener/tls.ts';

/** TLS_CERT_FILE and TLS_KEY_FILE: both (resolved against the working folder) or neither; one alone is a mistake. */
export function tlsFilesOf(
  certFile: string | null,
  keyFile: string | null,
  cwd: string,
  oldClients = false,
): TlsFiles | { problem: string } | null {
  if (certFile === null && keyFile === null) return null;
  if (certFile === null || keyFile === null) {
    return {
      problem:
        `${certFile === null ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is set without ${certFile === null ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'}: ` +
        'HTTPS needs both, the certificate (PEM, its chain may follow it) and its private key (PEM). Set both, or neither.',
    };
  }
  return { certFile: path.resolve(cwd, certFile), keyFile: path.resolve(cwd, keyFile), oldClients };
}

interface Transport {
  /** Whether HOST is a loopback address, which other machines cannot reach. */
  loopback: boolean;
  tls: TlsFiles | null;
  trustProxy: boolean | number | string[];
  insecureHttp: boolean;
}

/**
 * Passwords, bearer tokens and the data itself must not cross a network in clear. Beyond loopback the service
 * therefore needs its own certificate, or a proxy in front that terminates TLS; INSECURE_HTTP=on says, on purpose,
 * that neither is there (a private test network).
 */
export function plainHttpRefusal({ loopback, tls, trustProxy, insecureHttp }: Transport): string | null {
  if (loopback || tls !== null || trustProxy !== false || insecureHttp) return null;
  return (
    'HOST is beyond loopback, and the service would answer plain HTTP there: passwords and tokens would cross the ' +
    'network in clear. Give it a certificate with TLS_CERT_FILE and TLS_KEY_FILE (PEM files), or put it behind a ' +
    'reverse proxy that terminates HTTPS and set TRUST_PROXY to that proxy. INSECURE_HTTP=on starts it on plain ' +
    'HTTP anyway.'
  );
}

/** The loud start-up warning that plain HTTP beyond loopback deserves; null when there is none to give. */
export function plainHttpWarning(transport: Transport & { host: string }): string | null {
  if (!transport.insecureHttp || transport.loopback || transport.tls !== null || transport.trustProxy !== false) {
    return null;
  }
  return (
    `WARNING: INSECURE_HTTP is on and the service answers plain HTTP on ${transport.host}, beyond this machine. ` +
    'Anyone on the network path can read passwords and session tokens. Set TLS_CERT_FILE and TLS_KEY_FILE, or ' +
    'TRUST_PROXY behind an HTTPS proxy, for a real deployment.'
  );
}
