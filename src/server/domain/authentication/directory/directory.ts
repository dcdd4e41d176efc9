import type { ConnectionOptions } from 'node:tls';
import { Client, type Entry, Filter, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import {
  ACCOUNT_EMAIL_MAX,
  type AccountsPermission,
  CONTAIN,
  type Permission,
} from '../../../../shared/contract/index.ts';
import { type DirectoryConfig, inDirectoryDomain } from './directory-config.ts';

/** The directory accepted the password: who the person is there, and the permissions their groups give. */
export interface DirectorySignIn {
  /** `DOMAIN\name`, with the name as the directory spells it. */
  userName: string;
  dn: string;
  security: Permission[];
  /** Contain from LDAP_GROUP_ACCOUNTS_CONTAIN, or none (the directory gives no other Accounts permission). */
  accounts: AccountsPermission[];
  /** From LDAP_EMAIL_ATTRIBUTE; null when the entry has none. */
  email: string | null;
}

/** The directory could not be asked (down, unreachable, TLS failure, search account rejected): not a wrong password. */
export class DirectoryUnavailableError extends Error {}

export interface DirectoryLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Groups inside groups are followed this deep (Active Directory allows cycles; the visited set stops them too). */
const MAX_NESTING = 8;
/** Active Directory's userAccountControl flag ACCOUNTDISABLE. */
const AD_ACCOUNT_DISABLED = 0x2;

/** DNs compare case-insensitively and without the spaces some directories put after commas. */
const normalDn = (dn: string) => dn.replace(/\s*([,=+])\s*/g, '$1').toLowerCase();

/** Where groups are searched for: the naming context (the DC= part) of the configured group. */
function groupSearchBase(groupDn: string): string {
  const parts = groupDn.split(/,(?=\s*\w+\s*=)/);
  const dc = parts.findIndex((part) => /^\s*dc\s*=/i.test(part));
  return (dc >= 0 ? parts.slice(dc) : parts.slice(1)).join(',') || groupDn;
}

const text = (value: Entry[string] | undefined): string[] => {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : String(item)));
};

/**
 * Sign-in against LDAP / Active Directory with ldapts: search the person with the search account, read their
 * groups (nested ones too, by searching for groups that list them or a group they are in), then bind as them with
 * their password. A directory that cannot be reached is logged once per outage, not once per sign-in.
 */
export class Directory {
  private readonly config: DirectoryConfig;
  private readonly log: DirectoryLog;
  /** The reason of the outage in progress, or null while the directory answers. */
  private outage: string | null = null;
  /** The attribute the user filter matches (sAMAccountName, uid): it spells the name as the directory has it. */
  private readonly nameAttribute: string | null;

  constructor(config: DirectoryConfig, log: DirectoryLog) {
    this.config = config;
    this.log = log;
    this.nameAttribute = /\(([\w-]+)=\{user\}\)/.exec(config.userFilter)?.[1] ?? null;
  }

  get domain(): string {
    return this.config.domain;
  }

  /**
   * The directory name a typed user name stands for: `ACME\jo` and `jo` give `jo` when the domain is ACME;
   * null for another domain, which is refused without asking the directory.
   */
  directoryName(typed: string): string | null {
    const trimmed = typed.trim();
    const slash = trimmed.indexOf('\\');
    if (slash < 0) return trimmed.includes('@') ? null : trimmed;
    if (!inDirectoryDomain(trimmed, this.config.domain)) return null;
    const name = trimmed.slice(slash + 1);
    return name === '' || name.includes('\\') ? null : name;
  }

  /** The person's directory identity and permissions, null when the name or password is wrong or the account off. */
  async signIn(name: string, password: string): Promise<DirectorySignIn | null> {
    // An empty password would be an anonymous bind, which many directories accept: never a sign-in.
    if (password === '') return null;
    let lastProblem = 'no LDAP_URL';
    for (const url of this.config.urls) {
      try {
        const result = await this.signInAt(url, name, password);
        this.reachable();
        return result;
      } catch (error) {
        if (error instanceof DirectoryUnavailableError) {
          this.unavailable(error.message);
          throw error;
        }
        // Not an LDAP answer (refused connection, time-out, TLS): the next server may answer.
        lastProblem = `${url}: ${(error as Error).message || (error as Error).name}`;
      }
    }
    this.unavailable(lastProblem);
    throw new DirectoryUnavailableError(lastProblem);
  }

  private tlsOptions(url: string): ConnectionOptions {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return { ...(this.config.ca ? { ca: [this.config.ca] } : {}), servername: host, minVersion: 'TLSv1.2' };
  }

  private async signInAt(url: string, name: string, password: string): Promise<DirectorySignIn | null> {
    const client = new Client({
      url,
      timeout: this.config.timeoutMs,
      connectTimeout: this.config.timeoutMs,
      // ldapts speaks TLS from the start whenever tlsOptions are given: only for ldaps://.
      ...(url.toLowerCase().startsWith('ldaps:') ? { tlsOptions: this.tlsOptions(url) } : {}),
      strictDN: false,
    });
    try {
      if (this.config.startTls) await client.startTLS(this.tlsOptions(url));
      if (this.config.bindDn && this.config.bindPassword) {
        try {
          await client.bind(this.config.bindDn, this.config.bindPassword);
        } catch (error) {
          if (error instanceof InvalidCredentialsError) {
            throw new DirectoryUnavailableError(`${url}: the search account (LDAP_BIND_DN) was rejected`);
          }
          throw error;
        }
      }
      const user = await this.findUser(client, url, name);
      if (!user) return null;
      const { security, accounts } = await this.permissions(client, user);
      try {
        await client.bind(user.dn, password);
      } catch (error) {
        // Wrong password, and also disabled, locked or expired accounts: the directory refuses their bind.
        if (error instanceof ResultCodeError) return null;
        throw error;
      }
      const spelled = this.nameAttribute ? text(user[this.nameAttribute])[0] : undefined;
      const email = text(user[this.config.emailAttribute])[0]?.trim().slice(0, ACCOUNT_EMAIL_MAX) || null;
      return { userName: `${this.config.domain}\\${spelled ?? name}`, dn: user.dn, security, accounts, email };
    } catch (error) {
      if (error instanceof ResultCodeError) {
        // The directory answered, but not as a working configuration would (no such base, no access...).
        throw new DirectoryUnavailableError(`${url}: ${error.message}`);
      }
      throw error;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  private async findUser(client: Client, url: string, name: string): Promise<Entry | null> {
    const filter = this.config.userFilter.replaceAll('{user}', Filter.escape(name));
    const { searchEntries } = await client.search(this.config.userBase, {
      scope: 'sub',
      filter,
      sizeLimit: 2,
      attributes: [
        'dn',
        'memberOf',
        'userAccountControl',
        this.config.emailAttribute,
        ...(this.nameAttribute ? [this.nameAttribute] : []),
      ],
    });
    // None: unknown. Two: the filter is ambiguous, and guessing which one is who would be worse than refusing.
    if (searchEntries.length !== 1) {
      if (searchEntries.length > 1)
        this.log.warn({ url, filter }, 'directory: the user filter matched several entries');
      return null;
    }
    const user = searchEntries[0] as Entry;
    const control = Number(text(user.userAccountControl)[0] ?? 0);
    if (control & AD_ACCOUNT_DISABLED) return null;
    return user;
  }

  /**
   * Security Read / Write and Accounts Contain from membership of the configured groups, directly or through nested
   * groups.
   */
  private async permissions(
    client: Client,
    user: Entry,
  ): Promise<{ security: Permission[]; accounts: AccountsPermission[] }> {
    const wanted = [
      ['Read', this.config.groupSecurityRead],
      ['Write', this.config.groupSecurityWrite],
      [CONTAIN, this.config.groupAccountsContain],
    ] as const;
    const configured = wanted.filter((entry): entry is readonly [AccountsPermission, string] => entry[1] !== null);
    const given = await this.memberOf(client, user, configured);
    return {
      security: given.filter((permission): permission is Permission => permission !== CONTAIN),
      accounts: given.filter((permission) => permission === CONTAIN),
    };
  }

  /** Which of the configured groups' permissions the person's membership gives. */
  private async memberOf(
    client: Client,
    user: Entry,
    configured: (readonly [AccountsPermission, string])[],
  ): Promise<AccountsPermission[]> {
    if (configured.length === 0) return [];
    const groups = new Set(text(user.memberOf).map(normalDn));
    const bases = [...new Set(configured.map(([, dn]) => groupSearchBase(dn)))];
    let frontier = [user.dn, ...text(user.memberOf)];
    const visited = new Set(frontier.map(normalDn));
    for (let depth = 0; depth < MAX_NESTING && frontier.length > 0; depth++) {
      const filter = `(|${frontier.map((dn) => `(member=${Filter.escape(dn)})(uniqueMember=${Filter.escape(dn)})`).join('')})`;
      const next: string[] = [];
      for (const base of bases) {
        const { searchEntries } = await client.search(base, { scope: 'sub', filter, attributes: ['dn'] });
        for (const entry of searchEntries) {
          const key = normalDn(entry.dn);
          groups.add(key);
          if (!visited.has(key)) {
            visited.add(key);
            next.push(entry.dn);
          }
        }
      }
      if (configured.every(([, dn]) => groups.has(normalDn(dn)))) break;
      frontier = next;
    }
    return configured.filter(([, dn]) => groups.has(normalDn(dn))).map(([permission]) => permission);
  }

  private unavailable(reason: string): void {
    if (this.outage !== null) return;
    this.outage = reason;
    this.log.warn({ reason }, `directory unavailable: ${reason}. Directory sign-ins answer 503 until it is back.`);
  }

  private reachable(): void {
    if (this.outage === null) return;
    this.log.info({ previously: this.outage }, 'directory reachable again');
    this.outage = null;
  }
}
