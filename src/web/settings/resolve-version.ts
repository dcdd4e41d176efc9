import {
  type ApiVersion,
  DEFAULT_API_VERSION,
  isApiVersion,
  SUPPORTED_VERSIONS,
  type VersionInfo,
} from '../../shared/contract/index.ts';
import type { StoredSession } from '../session/session-store.ts';
import { settingsStore } from './settings-store.ts';

/** The version a call uses: the signed-in session's (fixed at sign-in), else what sign-in would choose now. */
export function activeApiVersion(session: Pick<StoredSession, 'apiVersion'> | null | undefined): ApiVersion {
  return session?.apiVersion ?? resolveApiVersion(settingsStore.get().apiVersion, undefined);
}

/** The person's choice if any, else the server's default, else the contract's. */
export function resolveApiVersion(preferred: ApiVersion | null, info: VersionInfo | undefined): ApiVersion {
  if (preferred) return preferred;
  if (info && isApiVersion(info.DefaultVersion)) return info.DefaultVersion;
  return DEFAULT_API_VERSION;
}

/** Versions both sides know; a server may list versions this dashboard has never heard of. */
export function selectableVersions(info: VersionInfo | undefined): ApiVersion[] {
  if (!info) return [...SUPPORTED_VERSIONS];
  const known = SUPPORTED_VERSIONS.filter((version) => info.SupportedVersions.includes(version));
  return known.length > 0 ? known : [...SUPPORTED_VERSIONS];
}
