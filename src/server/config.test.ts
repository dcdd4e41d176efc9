import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, demoExposureWarning, loadConfig } from './config.ts';
import {
  FALLBACK_STREAMS_PER_PROCESS,
  MAX_DERIVED_STREAMS_PER_PROCESS,
  openFileLimitOf,
  readOpenFileLimit,
  streamsPerProcessFor,
} from './lib/open-file-limit.ts';

const CWD = '/srv/tachyon';

describe('demo mode default: on only where it cannot reach a real deployment', () => {
  it('is on for a fresh clone: embedded database, no admin, no directory, loopback', () => {
    expect(loadConfig({}, CWD).demo).toBe(true);
    expect(loadConfig({ HOST: 'localhost' }, CWD).demo).toBe(true);
    expect(loadConfig({ HOST: '::1' }, CWD).demo).toBe(true);
  });

  it.each([
    ['a bootstrap admin', { ADMIN_USERNAME: 'ACME\\admin' }],
    ['PostgreSQL', { DATABASE_URL: 'postgres://db/tachyon' }],
    ['a directory', { LDAP_URL: 'ldaps://dc.acme.example', LDAP_USER_BASE: 'DC=acme,DC=example', LDAP_DOMAIN: 'ACME' }],
    ['a non-loopback address', { HOST: '0.0.0.0', INSECURE_HTTP: 'on' }],
    ['a LAN address behind a proxy', { HOST: '192.0.2.10', TRUST_PROXY: '1' }],
  ])('is off with %s unless DEMO=on says so', (_what, env) => {
    expect(loadConfig(env, CWD).demo).toBe(false);
    expect(loadConfig({ ...env, DEMO: 'on' }, CWD).demo).toBe(true);
  });

  it('warns loudly only when demo mode is on beyond loopback', () => {
    expect(demoExposureWarning(loadConfig({}, CWD))).toBeNull();
    expect(demoExposureWarning(loadConfig({ HOST: '0.0.0.0', INSECURE_HTTP: 'on' }, CWD))).toBeNull();
    const warning = demoExposureWarning(loadConfig({ HOST: '0.0.0.0', DEMO: 'on', INSECURE_HTTP: 'on' }, CWD));
    expect(warning).toMatch(/^WARNING: demo mode is on and the service listens on 0\.0\.0\.0/);
    expect(warning).toContain('DEMO=off');
  });
});

describe('TRUST_PROXY: hop counts and proxy addresses', () => {
  it('is off by default', () => {
    expect(loadConfig({}, CWD).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }, CWD).trustProxy).toBe(false);
  });

  it('takes a hop count or proxy addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }, CWD).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16 fd00::/8' }, CWD).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
  });

  it('refuses anything else with a clear message', () => {
    for (const value of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', 'on']) {
      expect(() => loadConfig({ TRUST_PROXY: value }, CWD), value).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.local' }, CWD)).toThrow(/TRUST_PROXY .*"proxy\.local"/);
  });
});

describe('WEB_ROOT and DATA_DIR: the data folder is never served', () => {
  it('refuses to serve a web root that contains the data folder', () => {
    expect(() => loadConfig({ WEB_ROOT: '.', DATA_DIR: 'data' }, CWD)).toThrow(/WEB_ROOT .* contains DATA_DIR/);
    expect(() => loadConfig({ WEB_ROOT: 'data', DATA_DIR: 'data' }, CWD)).toThrow(ConfigError);
  });

  it('accepts separate folders, no dashboard, or PostgreSQL', () => {
    expect(loadConfig({ WEB_ROOT: 'dist/web', DATA_DIR: 'data' }, CWD).webRoot).toBe('/srv/tachyon/dist/web');
    expect(loadConfig({ WEB_ROOT: '', DATA_DIR: 'data' }, CWD).webRoot).toBeNull();
    expect(loadConfig({ WEB_ROOT: '.', DATABASE_URL: 'postgres://db/t' }, CWD).webRoot).toBe(CWD);
    // A name that only starts like the web root is not inside it.
    expect(loadConfig({ WEB_ROOT: 'web', DATA_DIR: 'web-data' }, CWD).dataDir).toBe('/srv/tachyon/web-data');
  });
});

describe('the environment schema', () => {
  it('gives the documented defaults when nothing is set', () => {
    const config = loadConfig({}, CWD);
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/tachyon/data',
      databaseUrl: null,
      defaultApiVersion: '3.3',
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      loginFailuresPerUser: 5,
      connectSources: [],
      adminUserName: null,
      adminPassword: null,
      webRoot: '/srv/tachyon/dist/web',
      logLevel: 'info',
      basicAuth: true,
      requestTimeoutSeconds: 30,
      metrics: false,
      metricsPort: null,
      directory: null,
    });
  });

  it('reads and trims what is set', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: ' 0.0.0.0 ',
        INSECURE_HTTP: 'on',
        API_VERSION: '3.1',
        CONNECT_SRC: 'https://a.example, https://b.example',
      },
      CWD,
    );
    expect(config).toMatchObject({ port: 9000, host: '0.0.0.0', defaultApiVersion: '3.1' });
    expect(config.connectSources).toEqual(['https://a.example', 'https://b.example']);
    const token = 'scraper-7f3a9c1e5b2d4086';
    expect(
      loadConfig({ METRICS: 'on', METRICS_TOKEN: token, METRICS_PORT: '9100', BASIC_AUTH: 'off' }, CWD),
    ).toMatchObject({ metrics: true, metricsToken: token, metricsPort: 9100, basicAuth: false });
  });

  it('reads a fraction of a minute for the idle setting', () => {
    expect(loadConfig({ SESSION_IDLE_MINUTES: '0.5' }, CWD).sessionIdleMinutes).toBe(0.5);
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT must be an integer from 0 to 65535, got "80.5"'],
    [
      { SESSION_IDLE_MINUTES: '0.2' },
      'SESSION_IDLE_MINUTES must be minutes from 0.25 to 1440 in whole seconds, got "0.2"',
    ],
    [
      { SESSION_IDLE_MINUTES: '0.33' },
      'SESSION_IDLE_MINUTES must be minutes from 0.25 to 1440 in whole seconds, got "0.33"',
    ],
    [
      { SESSION_IDLE_MINUTES: 'soon' },
      'SESSION_IDLE_MINUTES must be minutes from 0.25 to 1440 in whole seconds, got "soon"',
    ],
    [{ METRICS_PORT: 'x' }, 'METRICS_PORT must be an integer from 1 to 65535, got "x"'],
    [{ BASIC_AUTH: 'maybe' }, 'BASIC_AUTH must be on or off, got "maybe"'],
    [{ REQUEST_TIMEOUT_SECONDS: '0' }, 'REQUEST_TIMEOUT_SECONDS must be an integer from 1 to 3600, got "0"'],
    [{ DEMO: 'sometimes' }, 'DEMO must be on or off, got "sometimes"'],
    [{ API_VERSION: '2.0' }, 'API_VERSION must be one of 3.0, 3.1, 3.2, 3.3, 4.0, got "2.0"'],
    [{ TRUST_PROXY: '500' }, 'TRUST_PROXY hop count must be at most 100, got "500"'],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env, CWD)).toThrow(new ConfigError(message));
  });

  it('takes the admin password as typed, spaces included', () => {
    const password = '  correct horse battery staple  ';
    expect(loadConfig({ ADMIN_USERNAME: 'CORP\\root', ADMIN_PASSWORD: password }, CWD).adminPassword).toBe(password);
  });
});

describe('LIVE_STREAMS_PER_ACCOUNT and LIVE_STREAMS_PER_PROCESS', () => {
  it('default to 10 per account and, per process, half the open-file limit', () => {
    expect(loadConfig({}, CWD)).toMatchObject({
      liveStreamsPerAccount: 10,
      liveStreamsPerProcess: streamsPerProcessFor(readOpenFileLimit()),
    });
    expect(loadConfig({ LIVE_STREAMS_PER_ACCOUNT: '3', LIVE_STREAMS_PER_PROCESS: '50' }, CWD)).toMatchObject({
      liveStreamsPerAccount: 3,
      liveStreamsPerProcess: 50,
    });
  });

  it('refuses a value that is not a positive whole number', () => {
    expect(() => loadConfig({ LIVE_STREAMS_PER_ACCOUNT: '0' }, CWD)).toThrow(/LIVE_STREAMS_PER_ACCOUNT/);
    expect(() => loadConfig({ LIVE_STREAMS_PER_PROCESS: 'many' }, CWD)).toThrow(/LIVE_STREAMS_PER_PROCESS/);
  });

  it('derive the process cap from the soft "Max open files" limit, with headroom, capped, with a fallback', () => {
    const limits = (soft: string, hard = '1048576') =>
      `Limit                     Soft Limit           Hard Limit           Units     \nMax cpu time              unlimited            unlimited            seconds   \nMax open files            ${soft}                 ${hard}                files     \n`;
    expect(openFileLimitOf(limits('1024'))).toBe(1024);
    expect(openFileLimitOf(limits('unlimited', 'unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(openFileLimitOf('Max cpu time unlimited unlimited seconds')).toBeNull();
    // The common 1,024 leaves 512 files for everything else; the old default of 1,000 left 24.
    expect(streamsPerProcessFor(1024)).toBe(512);
    expect(streamsPerProcessFor(256)).toBe(128);
    expect(streamsPerProcessFor(1)).toBe(1);
    expect(streamsPerProcessFor(1_048_576)).toBe(MAX_DERIVED_STREAMS_PER_PROCESS);
    expect(streamsPerProcessFor(Number.POSITIVE_INFINITY)).toBe(MAX_DERIVED_STREAMS_PER_PROCESS);
    expect(streamsPerProcessFor(null)).toBe(FALLBACK_STREAMS_PER_PROCESS);
    if (process.platform === 'linux') expect(readOpenFileLimit()).toBeGreaterThan(0);
  });
});

describe('ALLOWED_HOSTS', () => {
  it('takes host names, lower-cased, IPv6 addresses in brackets', () => {
    expect(loadConfig({}, CWD).allowedHosts).toEqual([]);
    expect(loadConfig({ ALLOWED_HOSTS: 'tachyon.test, Dash.Example.COM ::1 [fd00::5]' }, CWD).allowedHosts).toEqual([
      'tachyon.test',
      'dash.example.com',
      '[::1]',
      '[fd00::5]',
    ]);
  });

  it('refuses a URL or a port, which would never match a name', () => {
    for (const value of ['http://tachyon.test', 'tachyon.test:8080', 'tachyon.test/', 'a..b']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: value }, CWD), value).toThrow(/ALLOWED_HOSTS .*host names/);
    }
  });
});

describe('METRICS and METRICS_TOKEN', () => {
  it('refuses to start with the metrics on the public port and no token, naming both ways out', () => {
    expect(() => loadConfig({ METRICS: 'on' }, CWD)).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS: 'on' }, CWD)).toThrow(/METRICS_TOKEN[\s\S]*METRICS_PORT/);
    expect(() => loadConfig({ METRICS: 'on', METRICS_PORT: '9100' }, CWD)).toThrow(/METRICS_TOKEN/);
  });

  it('needs no token for the metrics on a port of their own', () => {
    expect(loadConfig({ METRICS_PORT: '9100' }, CWD)).toMatchObject({ metrics: false, metricsPort: 9100 });
    expect(loadConfig({}, CWD).metricsToken).toBeNull();
  });

  it('refuses a token too short to resist guessing, or one a Bearer header cannot carry', () => {
    for (const token of ['short', 'x'.repeat(15), 'has spaces in the middle of it', 'é'.repeat(20)]) {
      expect(() => loadConfig({ METRICS: 'on', METRICS_TOKEN: token }, CWD), token).toThrow(/METRICS_TOKEN/);
    }
  });
});

describe('Web Push settings', () => {
  const PUBLIC_KEY = `B${'A'.repeat(86)}`;
  const PRIVATE_KEY = 'A'.repeat(43);

  it('takes a VAPID pair, a mailto: or https: subject, and push origins', () => {
    const config = loadConfig(
      {
        VAPID_PUBLIC_KEY: PUBLIC_KEY,
        VAPID_PRIVATE_KEY: PRIVATE_KEY,
        VAPID_SUBJECT: 'mailto:security@acme.example',
        PUSH_ALLOW_ORIGINS: 'https://push.acme.internal:8443, http://127.0.0.1:8089/',
      },
      CWD,
    );
    expect(config).toMatchObject({
      vapidPublicKey: PUBLIC_KEY,
      vapidPrivateKey: PRIVATE_KEY,
      vapidSubject: 'mailto:security@acme.example',
      pushAllowOrigins: ['https://push.acme.internal:8443', 'http://127.0.0.1:8089'],
    });
    expect(loadConfig({ VAPID_SUBJECT: 'https://acme.example/security' }, CWD).vapidSubject).toBe(
      'https://acme.example/security',
    );
    expect(loadConfig({}, CWD)).toMatchObject({ vapidSubject: null, vapidPublicKey: null, pushAllowOrigins: [] });
  });

  it.each([
    ['mailto:webpush@localhost'],
    ['https://localhost/contact'],
    ['https://127.0.0.1/'],
    ['http://acme.example/contact'],
    ['security@acme.example'],
  ])('refuses the subject %s (Apple refuses localhost subjects; http is no operator URL)', (subject) => {
    expect(() => loadConfig({ VAPID_SUBJECT: subject }, CWD)).toThrow(/^VAPID_SUBJECT must be a mailto: address/);
  });

  it('refuses half a pair, keys of the wrong shape, and push origins with paths', () => {
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: PUBLIC_KEY }, CWD)).toThrow(/go together/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: PUBLIC_KEY.slice(1), VAPID_PRIVATE_KEY: PRIVATE_KEY }, CWD)).toThrow(
      /VAPID_PUBLIC_KEY must be/,
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: PUBLIC_KEY, VAPID_PRIVATE_KEY: 'short' }, CWD)).toThrow(
      /VAPID_PRIVATE_KEY must be/,
    );
    expect(() => loadConfig({ PUSH_ALLOW_ORIGINS: 'https://push.acme.internal/path' }, CWD)).toThrow(
      /PUSH_ALLOW_ORIGINS must be origins/,
    );
    expect(() => loadConfig({ PUSH_ALLOW_ORIGINS: 'ftp://push.acme.internal' }, CWD)).toThrow(
      /PUSH_ALLOW_ORIGINS must be origins/,
    );
  });

  it('reads the directory email attribute, mail by default', () => {
    const directory = {
      LDAP_URL: 'ldaps://dc.acme.example',
      LDAP_USER_BASE: 'DC=acme,DC=example',
      LDAP_DOMAIN: 'ACME',
    };
    expect(loadConfig(directory, CWD).directory?.emailAttribute).toBe('mail');
    expect(loadConfig({ ...directory, LDAP_EMAIL_ATTRIBUTE: 'userPrincipalName' }, CWD).directory?.emailAttribute).toBe(
      'userPrincipalName',
    );
    expect(() => loadConfig({ ...directory, LDAP_EMAIL_ATTRIBUTE: 'mail)(uid=*' }, CWD)).toThrow(
      /LDAP_EMAIL_ATTRIBUTE must be an attribute name/,
    );
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to the address people on this machine open, and takes an origin', () => {
    expect(loadConfig({}, CWD).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000', INSECURE_HTTP: 'on' }, CWD).publicUrl).toBe(
      'http://localhost:9000',
    );
    expect(loadConfig({ HOST: '10.0.0.5', TRUST_PROXY: '1' }, CWD).publicUrl).toBe('http://10.0.0.5:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://Tachyon.Acme.Example/' }, CWD).publicUrl).toBe(
      'https://tachyon.acme.example',
    );
  });

  it('refuses a URL with a path or another scheme', () => {
    for (const value of ['https://acme.example/tachyon', 'ftp://acme.example', 'acme.example']) {
      expect(() => loadConfig({ PUBLIC_URL: value }, CWD), value).toThrow(/PUBLIC_URL must be an http\(s\) origin/);
    }
  });
});

describe('backups and the audit stream', () => {
  it('take no backups and write no audit lines by default; a day and seven backups once BACKUP_DIR is set', () => {
    expect(loadConfig({}, CWD)).toMatchObject({
      backupDir: null,
      backupIntervalMinutes: 1440,
      backupKeep: 7,
      auditLog: null,
    });
    expect(
      loadConfig(
        { BACKUP_DIR: 'backups', BACKUP_INTERVAL_MINUTES: '60', BACKUP_KEEP: '24', AUDIT_LOG: 'logs/audit.log' },
        CWD,
      ),
    ).toMatchObject({
      backupDir: path.join(CWD, 'backups'),
      backupIntervalMinutes: 60,
      backupKeep: 24,
      auditLog: path.join(CWD, 'logs/audit.log'),
    });
    expect(loadConfig({ AUDIT_LOG: 'stdout' }, CWD).auditLog).toBe('stdout');
  });

  it('refuses an interval or a count that is not a whole number in range, with the variable named', () => {
    expect(() => loadConfig({ BACKUP_INTERVAL_MINUTES: '0' }, CWD)).toThrow(
      new ConfigError('BACKUP_INTERVAL_MINUTES must be an integer from 1 to 10080, got "0"'),
    );
    expect(() => loadConfig({ BACKUP_KEEP: 'all' }, CWD)).toThrow(
      new ConfigError('BACKUP_KEEP must be an integer from 1 to 1000, got "all"'),
    );
  });

  it('refuses BACKUP_DIR on PostgreSQL (pg_dump backs that up) and as the data folder itself', () => {
    expect(() => loadConfig({ BACKUP_DIR: 'backups', DATABASE_URL: 'postgres://db/tachyon' }, CWD)).toThrow(
      /BACKUP_DIR takes backups of the embedded database, but DATABASE_URL selects PostgreSQL/,
    );
    expect(() => loadConfig({ BACKUP_DIR: 'data', DATA_DIR: './data' }, CWD)).toThrow(/BACKUP_DIR .* is DATA_DIR/);
  });
});
