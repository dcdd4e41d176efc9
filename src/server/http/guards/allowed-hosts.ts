import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../lib/problem-error.ts';

/** Loopback names and addresses: a service listening only there cannot be reached from another machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}

/** The names a browser on this machine reaches a loopback service by; no web page can be served under them. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The Host names the service answers, or null for any. A web page whose name an attacker re-points at 127.0.0.1
 * (DNS rebinding) is its own origin to the browser, so its scripts could drive a loopback service (the demo's
 * admin included); only the Host header still carries the attacker's name. A service reachable from elsewhere,
 * or behind a proxy, is addressed by names this one cannot know, so it answers any.
 */
export function servedHostNames(config: {
  host: string;
  trustProxy: boolean | number | readonly string[];
  allowedHosts: readonly string[];
}): ReadonlySet<string> | null {
  if (!isLoopbackHost(config.host) || config.trustProxy !== false) return null;
  // The address it listens on, as a Host header writes it (127.0.0.2, [::ffff:127.0.0.1]): the start-up banner's URL.
  const own = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return new Set([...LOOPBACK_HOST_NAMES, own.toLowerCase(), ...config.allowedHosts]);
}

/** The name in a Host header: lower case, without the port; an IPv6 address keeps its brackets. */
export function hostNameOf(host: string): string {
  const value = host.trim().toLowerCase();
  const end = value.startsWith('[') ? value.indexOf(']') + 1 : value.indexOf(':');
  return end > 0 ? value.slice(0, end) : value;
}

/**
 * Whether a Host header is a name, optionally followed by a port of digits only. Anything after the name that is not
 * one (`localhost:@evil.example`, `host:80x`) would make an address built from it point somewhere else.
 */
export function hostHeaderWellFormed(host: string): boolean {
  const value = host.trim();
  const end = value.startsWith('[') ? value.indexOf(']') + 1 : value.indexOf(':');
  if (end <= 0) return !value.includes('@');
  const port = value.slice(end);
  return port === '' || /^:\d{1,5}$/.test(port);
}

/**
 * Refuses, before anything else looks at it, a request whose Host header's port is not digits, and (on loopback) one
 * addressed to a name the service does not answer.
 */
export function registerAllowedHosts(app: FastifyInstance, names: ReadonlySet<string> | null): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host ?? request.headers[':authority'];
    if (typeof host !== 'string' || hostHeaderWellFormed(host)) return done();
    done(
      new ProblemError(
        400,
        'malformed-request',
        'Malformed Host header',
        'The Host header must be a host name, optionally followed by a colon and a port of digits.',
      ),
    );
  });
  if (names === null) return;
  const detail =
    `This service answers only to ${[...names].join(', ')}. ` +
    'To reach it by another name that points to this machine, add the name to ALLOWED_HOSTS.';
  app.addHook('onRequest', (request, _reply, done) => {
    // HTTP/2 names the host in its :authority pseudo-header (a client may send Host instead).
    const host = request.headers.host ?? request.headers[':authority'];
    if (typeof host === 'string' && names.has(hostNameOf(host))) return done();
    done(new ProblemError(421, 'misdirected-request', 'Unknown host name', detail));
  });
}
