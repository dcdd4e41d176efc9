import { readFileSync } from 'node:fs';

/** LDAP / Active Directory sign-in settings, read from LDAP_* variables. */
export interface DirectoryConfig {
  /** Tried in order: the next when one cannot be reached (fail-over). */
  urls: string[];
  startTls: boolean;
  /** PEM certificates to trust for ldaps:// and StartTLS; null trusts Node's default roots. */
  ca: string | null;
  caFile: string | null;
  bindDn: string | null;
  bindPassword: string | null;
  userBase: string;
  /** `{user}` is replaced by the escaped user name. */
  userFilter: string;
  /** The NetBIOS domain, upper-cased: `ACME\jo` signs in as `jo`. */
  domain: string;
  groupSecurityRead: string | null;
  groupSecurityWrite: string | null;
  /** Members get Contain on Accounts: the helpdesk's containment of people who hold no Accounts permission. */
  groupAccountsContain: string | null;
  /** Milliseconds to wait for a connection and for each operation. */
  timeoutMs: number;
  /** The attribute holding a person's email address (read at each sign-in; a device request's UserEmail). */
  emailAttribute: string;
}

/**
 * Whether a user name is `DOMAIN\user` with LDAP_DOMAIN (upper-cased, as `domain` is) before the backslash: the
 * names the directory owns.
 */
export function inDirectoryDomain(userName: string, domain: string): boolean {
  const trimmed = userName.trim();
  const slash = trimmed.indexOf('\\');
  return slash >= 0 && trimmed.slice(0, slash).toUpperCase() === domain;
}

const flagValue = (raw: string | undefined, name: string, error: (message: string) => Error): boolean => {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '') return false;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw error(`${name} must be on or off, got "${raw}"`);
};

export function loadDirectoryConfig(env: NodeJS.ProcessEnv, error: (message: string) => Error): DirectoryConfig | null {
  const rawUrls = env.LDAP_URL?.trim();
  if (!rawUrls) return null;
  const urls = rawUrls.split(/[\s,]+/).filter(Boolean);
  for (const url of urls) {
    if (!/^ldaps?:\/\/[^/\s]+\/?$/i.test(url)) {
      throw error(`LDAP_URL must be ldap:// or ldaps:// addresses separated by commas; "${url}" is not one`);
    }
  }
  const startTls = flagValue(env.LDAP_START_TLS, 'LDAP_START_TLS', error);
  if (startTls && urls.some((url) => url.toLowerCase().startsWith('ldaps:'))) {
    throw error('LDAP_START_TLS=on goes with ldap:// addresses; ldaps:// is already encrypted');
  }
  const caFile = env.LDAP_CA_FILE?.trim() || null;
  let ca: string | null = null;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (cause) {
      throw error(`LDAP_CA_FILE ${caFile} cannot be read: ${(cause as Error).message}`);
    }
  }
  const bindDn = env.LDAP_BIND_DN?.trim() || null;
  const bindPassword = env.LDAP_BIND_PASSWORD || null;
  if ((bindDn === null) !== (bindPassword === null)) {
    throw error('LDAP_BIND_DN and LDAP_BIND_PASSWORD go together: set both, or neither for an anonymous search');
  }
  const userBase = env.LDAP_USER_BASE?.trim();
  if (!userBase) throw error('LDAP_USER_BASE is required with LDAP_URL (for example OU=Staff,DC=acme,DC=example)');
  const userFilter = env.LDAP_USER_FILTER?.trim() || '(sAMAccountName={user})';
  if (!userFilter.includes('{user}') || !/^\(.*\)$/.test(userFilter)) {
    throw error(`LDAP_USER_FILTER must be a filter in parentheses containing {user}, got "${userFilter}"`);
  }
  const domain = env.LDAP_DOMAIN?.trim();
  if (!domain || /[\\/\s]/.test(domain)) {
    throw error('LDAP_DOMAIN is required with LDAP_URL: the NetBIOS domain name people type before the backslash');
  }
  const timeout = env.LDAP_TIMEOUT_SECONDS?.trim();
  const timeoutSeconds = timeout ? Number(timeout) : 5;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 60) {
    throw error(`LDAP_TIMEOUT_SECONDS must be an integer from 1 to 60, got "${timeout}"`);
  }
  const emailAttribute = env.LDAP_EMAIL_ATTRIBUTE?.trim() || 'mail';
  if (!/^[A-Za-z][\w-]*$/.test(emailAttribute)) {
    throw error(`LDAP_EMAIL_ATTRIBUTE must be an attribute name such as mail, got "${emailAttribute}"`);
  }
  return {
    urls,
    startTls,
    ca,
    caFile,
    bindDn,
    bindPassword,
    userBase,
    userFilter,
    domain: domain.toUpperCase(),
    groupSecurityRead: env.LDAP_GROUP_SECURITY_READ?.trim() || null,
    groupSecurityWrite: env.LDAP_GROUP_SECURITY_WRITE?.trim() || null,
    groupAccountsContain: env.LDAP_GROUP_ACCOUNTS_CONTAIN?.trim() || null,
    timeoutMs: timeoutSeconds * 1000,
    emailAttribute,
  };
}
