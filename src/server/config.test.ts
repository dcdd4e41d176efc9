import { describe, expect, it } from 'vitest';
import { ConfigError, demoExposureWarning, loadConfig } from './config.ts';

const CWD = '/srv/tachyon';

describe('demo mode default (issue 11, item 2)', () => {
  it('is on for a fresh clone: embedded database, no admin, no directory, loopback', () => {
    expect(loadConfig({}, CWD).demo).toBe(true);
    expect(loadConfig({ HOST: 'localhost' }, CWD).demo).toBe(true);
    expect(loadConfig({ HOST: '::1' }, CWD).demo).toBe(true);
  });

  it.each([
    ['a bootstrap admin', { ADMIN_USERNAME: 'ACME\\admin' }],
    ['PostgreSQL', { DATABASE_URL: 'postgres://db/tachyon' }],
    ['a directory', { LDAP_URL: 'ldaps://dc.acme.example', LDAP_USER_BASE: 'DC=acme,DC=example', LDAP_DOMAIN: 'ACME' }],
    ['a non-loopback address', { HOST: '0.0.0.0' }],
    ['a LAN address', { HOST: '192.0.2.10' }],
  ])('is off with %s unless DEMO=on says so', (_what, env) => {
    expect(loadConfig(env, CWD).demo).toBe(false);
    expect(loadConfig({ ...env, DEMO: 'on' }, CWD).demo).toBe(true);
  });

  it('warns loudly only when demo mode is on beyond loopback', () => {
    expect(demoExposureWarning(loadConfig({}, CWD))).toBeNull();
    expect(demoExposureWarning(loadConfig({ HOST: '0.0.0.0' }, CWD))).toBeNull();
    const warning = demoExposureWarning(loadConfig({ HOST: '0.0.0.0', DEMO: 'on' }, CWD));
    expect(warning).toMatch(/^WARNING: demo mode is on and the service listens on 0\.0\.0\.0/);
    expect(warning).toContain('DEMO=off');
  });
});

describe('TRUST_PROXY (issue 11, item 7)', () => {
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

describe('WEB_ROOT and DATA_DIR (issue 11, item 13)', () => {
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
