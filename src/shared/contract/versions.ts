/** API versions this product knows, oldest first. Seed §9 names 3.1, 3.3 and 4.0; SPEC §3 fills in the rest. */
export const SUPPORTED_VERSIONS = ['3.0', '3.1', '3.2', '3.3', '4.0'] as const;

export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];

export const DEFAULT_API_VERSION: ApiVersion = '3.3';

/** The request and response header that carries the version. */
export const API_VERSION_HEADER = 'Api-Version';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (SUPPORTED_VERSIONS as readonly string[]).includes(value);
}

/** Negative when a is older than b, zero when equal, positive when newer. */
export function compareVersions(a: ApiVersion, b: ApiVersion): number {
  return SUPPORTED_VERSIONS.indexOf(a) - SUPPORTED_VERSIONS.indexOf(b);
}
