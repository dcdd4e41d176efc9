import { DEMO_ACCOUNTS } from '../shared/contract/index.ts';
import type { Config } from './config.ts';
import { relyingPartyOf } from './domain/authentication/passkeys/relying-party.ts';
import { isLoopbackHost } from './http/guards/allowed-hosts.ts';

type BannerConfig = Pick<
  Config,
  | 'publicUrl'
  | 'publicUrlSet'
  | 'tls'
  | 'host'
  | 'defaultApiVersion'
  | 'databaseUrl'
  | 'dataDir'
  | 'demo'
  | 'adminUserName'
  | 'directory'
>;

/**
 * What the service prints once it listens. The address to open is PUBLIC_URL's (http://localhost:PORT by default),
 * the one passkeys are made for: a browser refuses them at an IP address, so the address the socket listens on
 * (127.0.0.1) is named only for the API, never as the dashboard's.
 */
export function startBanner(config: BannerConfig, port: number, readyMs: number): string[] {
  const open = config.publicUrl;
  const listening = `${config.tls ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const passkeys = relyingPartyOf(open).unavailable;
  const lines = [
    `Tachyon Consumer service ready in ${readyMs} ms`,
    `  open:      ${open}/${passkeys ? ' (passkeys need a name here, not an IP address: set PUBLIC_URL)' : ' (passkeys work at this address)'}`,
    // Where this process listens, for scripts and checks on this host (the test harness reads this line).
    `  API:       ${listening}/api (default version ${config.defaultApiVersion})`,
  ];
  lines.push(`  database:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`);
  // Only a default PUBLIC_URL on loopback is asked about: phones cannot open it.
  if (!config.publicUrlSet && isLoopbackHost(new URL(open).hostname)) {
    lines.push('  phones:    set PUBLIC_URL to the address phones open (enrolment links and notifications carry it)');
  }
  if (config.demo) {
    lines.push('  demo mode: on (DEMO=off to turn it off). Sign in with a demo account:');
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.userName.padEnd(16)} ${account.password}`);
  } else {
    lines.push(
      `  demo mode: off. Sign in with ${
        config.adminUserName
          ? `${config.adminUserName} (ADMIN_USERNAME, the password in ADMIN_PASSWORD)`
          : config.directory
            ? 'a directory account (LDAP_URL)'
            : 'an existing account'
      }`,
    );
  }
  return lines;
}
