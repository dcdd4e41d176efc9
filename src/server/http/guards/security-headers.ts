import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiPath } from '../api-path.ts';

/**
 * Helmet's headers, computed once. @fastify/helmet rebuilds the Helmet middleware, CSP parsing
 * included, on every request (about 11% of a simple GET's time); the headers never vary here.
 */
function computeHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Helmet headers read only by a browser rendering a document: cross-origin isolation of a browsing context,
 * DNS prefetching, IE's download prompt, Adobe clients' policy files, the legacy XSS auditor.
 */
const DOCUMENT_ONLY = new Set([
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
]);

/** Two years, subdomains included (Mozilla's server profiles; the preload list asks for at least one). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/** The header's value: `preload` only when the operator asks (HSTS_PRELOAD), since leaving the list takes months. */
export const strictTransportSecurity = (preload: boolean) =>
  preload ? `${STRICT_TRANSPORT_SECURITY}; preload` : STRICT_TRANSPORT_SECURITY;

/**
 * The service's Helmet configuration (SPEC §3): CSP with scripts from this origin only, no framing, no referrer.
 * The throughput bench's floor sends the same headers from this one object.
 */
export function helmetOptions(connectSources: readonly string[]): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...connectSources],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // Sent only where the client's leg is HTTPS (below): browsers ignore it over plain HTTP (RFC 6797 §8.1), where
    // it would promise what this service does not give.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  };
}

/** An admin tool has nothing for search engines: every dashboard answer asks them not to index it (robots.txt too). */
const NOT_INDEXED = { 'X-Robots-Tag': 'noindex, nofollow' };

/** The headers of an API answer and of a dashboard answer (a page, an asset, the device app). */
export function securityHeaders(connectSources: readonly string[]): {
  api: Record<string, string>;
  dashboard: Record<string, string>;
} {
  const headers = computeHeaders(helmetOptions(connectSources));
  // Headers that only mean something for a document a browser renders stay off JSON answers: every API
  // response carries less, and the ones that guard data (CSP, no sniffing, no framing, CORP) stay.
  const api = Object.fromEntries(Object.entries(headers).filter(([name]) => !DOCUMENT_ONLY.has(name)));
  return { api, dashboard: { ...headers, ...NOT_INDEXED } };
}

/** Security headers on every response (SPEC §3), and the dashboard's request not to be indexed. */
export function registerSecurityHeaders(
  app: FastifyInstance,
  connectSources: readonly string[],
  hstsPreload = false,
): void {
  const { api, dashboard } = securityHeaders(connectSources);
  const hsts = strictTransportSecurity(hstsPreload);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? api : dashboard);
    // Its own certificate, or a trusted proxy saying X-Forwarded-Proto: https (Fastify reads it from no one else).
    if (request.protocol === 'https') reply.header('strict-transport-security', hsts);
    done();
  });
}
