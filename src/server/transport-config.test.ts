import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { isLoopbackHost } from './http/guards/allowed-hosts.ts';
import { plainHttpWarning } from './transport-config.ts';

const CWD = '/srv/tachyon';
const TLS = { TLS_CERT_FILE: 'tls/fullchain.pem', TLS_KEY_FILE: '/etc/tachyon/key.pem' };

describe('TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('are off by default, and taken together, relative to the working folder', () => {
    expect(loadConfig({}, CWD).tls).toBeNull();
    expect(loadConfig(TLS, CWD).tls).toEqual({
      certFile: '/srv/tachyon/tls/fullchain.pem',
      keyFile: '/etc/tachyon/key.pem',
      oldClients: false,
    });
    expect(loadConfig({ ...TLS, TLS_OLD_CLIENTS: 'on' }, CWD).tls).toMatchObject({ oldClients: true });
    expect(loadConfig({}, CWD).hstsPreload).toBe(false);
    expect(loadConfig({ HSTS_PRELOAD: 'on' }, CWD).hstsPreload).toBe(true);
  });

  it.each([
    ['TLS_CERT_FILE', { TLS_CERT_FILE: 'cert.pem' }, 'TLS_CERT_FILE is set without TLS_KEY_FILE'],
    ['TLS_KEY_FILE', { TLS_KEY_FILE: 'key.pem' }, 'TLS_KEY_FILE is set without TLS_CERT_FILE'],
    ['TLS_CERT_FILE with a blank key', { TLS_CERT_FILE: 'cert.pem', TLS_KEY_FILE: '  ' }, 'without TLS_KEY_FILE'],
  ])('stop the start when only %s is set', (_what, env, message) => {
    expect(() => loadConfig(env, CWD)).toThrow(message);
  });

  it('make the default PUBLIC_URL an https one', () => {
    expect(loadConfig(TLS, CWD).publicUrl).toBe('https://localhost:8080');
    expect(loadConfig({ ...TLS, HOST: '10.0.0.5', PORT: '443' }, CWD).publicUrl).toBe('https://10.0.0.5:443');
  });
});

describe('plain HTTP beyond loopback', () => {
  it.each(['0.0.0.0', '::', '192.0.2.10', 'tachyon.acme.example'])('is refused on %s, naming the ways out', (host) => {
    expect(() => loadConfig({ HOST: host }, CWD)).toThrow(
      /TLS_CERT_FILE and TLS_KEY_FILE.*TRUST_PROXY.*INSECURE_HTTP=on/,
    );
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LOCALHOST'])(
    'is served on loopback (%s)',
    (host) => {
      expect(loadConfig({ HOST: host }, CWD).host).toBe(host);
    },
  );

  it.each([
    ['its own certificate', TLS],
    ['a trusted proxy', { TRUST_PROXY: '10.0.0.5' }],
    ['a trusted hop', { TRUST_PROXY: '1' }],
    ['INSECURE_HTTP=on', { INSECURE_HTTP: 'on' }],
  ])('starts beyond loopback with %s', (_what, env) => {
    expect(loadConfig({ HOST: '0.0.0.0', ...env }, CWD).host).toBe('0.0.0.0');
  });

  it('is still refused with TRUST_PROXY=off or INSECURE_HTTP=off', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0', TRUST_PROXY: 'off', INSECURE_HTTP: 'off' }, CWD)).toThrow(
      /beyond loopback/,
    );
  });

  it('refuses a misspelt INSECURE_HTTP', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0', INSECURE_HTTP: 'sure' }, CWD)).toThrow(
      'INSECURE_HTTP must be on or off, got "sure"',
    );
  });

  it('warns loudly only when INSECURE_HTTP is what lets it start', () => {
    const warningFor = (env: NodeJS.ProcessEnv) => {
      const config = loadConfig(env, CWD);
      return plainHttpWarning({ ...config, loopback: isLoopbackHost(config.host) });
    };
    expect(warningFor({ HOST: '0.0.0.0', INSECURE_HTTP: 'on' })).toMatch(
      /^WARNING: INSECURE_HTTP is on and the service answers plain HTTP on 0\.0\.0\.0/,
    );
    expect(warningFor({ INSECURE_HTTP: 'on' })).toBeNull();
    expect(warningFor({ HOST: '0.0.0.0', INSECURE_HTTP: 'on', ...TLS })).toBeNull();
    expect(warningFor({ HOST: '0.0.0.0', INSECURE_HTTP: 'on', TRUST_PROXY: '1' })).toBeNull();
  });
});

describe('SHUTDOWN_DRAIN_SECONDS', () => {
  it('is 0 by default and takes up to 300 seconds', () => {
    expect(loadConfig({}, CWD).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '15' }, CWD).shutdownDrainSeconds).toBe(15);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '301' }, CWD)).toThrow(
      'SHUTDOWN_DRAIN_SECONDS must be an integer from 0 to 300, got "301"',
    );
  });
});
