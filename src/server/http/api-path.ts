import { API_PREFIX } from '../../shared/contract/index.ts';

/**
 * Where the interface lives (SPEC §3): under /api, and at the site root for the Consumer interface, as the
 * real platform serves it (`/Consumer/...`, `/ConsumerAuthentication/...`). No page path starts with these.
 */
const PREFIXES = [API_PREFIX, '/Consumer', '/ConsumerAuthentication'].map((prefix) => prefix.toLowerCase());

function startsWithSegment(url: string, prefix: string): boolean {
  if (url.length < prefix.length || url.slice(0, prefix.length).toLowerCase() !== prefix) return false;
  const next = url[prefix.length];
  return next === undefined || next === '/' || next === '?';
}

/** Whether a request URL is the interface's (routes match case-insensitively, so the prefixes do too). */
export function isApiPath(url: string): boolean {
  return PREFIXES.some((prefix) => startsWithSegment(url, prefix));
}

/** Catalogue paths also served at the site root: the Consumer interface, not this product's own /Demo actors. */
export function servedAtRoot(path: string): boolean {
  return startsWithSegment(path, '/consumer') || startsWithSegment(path, '/consumerauthentication');
}

/**
 * The published SDK puts a version after the consumer root: `/Consumer/v3.2/Authentication`. The segment
 * is taken out of the URL before routing (so every route serves it) and kept as the requested version.
 */
const VERSION_SEGMENT = /^((?:\/api)?\/consumer)\/v(\d+\.\d+)(?=\/)/i;

export const PATH_VERSION = Symbol('pathVersion');

interface RawRequest {
  url?: string | undefined;
  [PATH_VERSION]?: string;
}

/** Fastify's rewriteUrl: strips a `v{major}.{minor}` segment after `/Consumer/` and remembers its version. */
export function stripVersionSegment(this: unknown, request: RawRequest): string {
  const url = request.url ?? '/';
  const match = VERSION_SEGMENT.exec(url);
  if (!match) return url;
  request[PATH_VERSION] = match[2] as string;
  return `${match[1]}${url.slice(match[0].length)}`;
}

/** The version a request named in its path, if it did. */
export function pathVersionOf(request: object): string | undefined {
  return (request as RawRequest)[PATH_VERSION];
}
