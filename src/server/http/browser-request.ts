import type { FastifyRequest } from 'fastify';

/**
 * Whether a browser sent the request: the dashboard's pages (and any page) are refused to API accounts by this.
 * Browsers add `Sec-Fetch-Site` to every request to a trustworthy origin (HTTPS, or localhost) and `Origin` to every
 * POST, and a page's script can remove neither. Scripts and the published SDK send neither. The dashboard's
 * X-Tachyon-Consumer name is no sign of it: a person chooses it in the dashboard's settings, and any script can
 * send it or leave it out.
 */
export function isBrowserRequest(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] !== undefined || request.headers.origin !== undefined;
}
