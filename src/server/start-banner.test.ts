import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startBanner } from './start-banner.ts';

const banner = (env: Record<string, string>) => startBanner(loadConfig(env, '/srv/tachyon'), 3000, 12).join('\n');

describe('the start banner', () => {
  it('sends the first administrator to the address passkeys work at, not the IP address it listens on', () => {
    const text = banner({ PORT: '3000', DEMO: 'off', ADMIN_USERNAME: 'LOCAL\\admin', ADMIN_PASSWORD: 'x'.repeat(16) });
    expect(text).toMatch(/^ {2}open: +http:\/\/localhost:3000\/ \(passkeys work at this address\)$/m);
    expect(text).not.toMatch(/open: +http:\/\/127\.0\.0\.1/);
    expect(text).toMatch(/API: +http:\/\/127\.0\.0\.1:3000\/api/);
    // PUBLIC_URL not set, on loopback: asked for, for phones.
    expect(text).toMatch(/set PUBLIC_URL to the address phones open/);
  });

  it('stops asking for PUBLIC_URL once it is set, and opens it', () => {
    const text = banner({ PORT: '3000', PUBLIC_URL: 'http://localhost:3000' });
    expect(text).not.toMatch(/set PUBLIC_URL/);
    expect(
      banner({ PORT: '3000', HOST: '0.0.0.0', PUBLIC_URL: 'https://tachyon.acme.example', INSECURE_HTTP: 'on' }),
    ).toMatch(/open: +https:\/\/tachyon\.acme\.example\/ \(passkeys work at this address\)/);
  });

  it('says when PUBLIC_URL is an IP address, where no browser makes a passkey', () => {
    expect(banner({ PORT: '3000', PUBLIC_URL: 'http://192.0.2.10:3000' })).toMatch(
      /open: +http:\/\/192\.0\.2\.10:3000\/ \(passkeys need a name here, not an IP address: set PUBLIC_URL\)/,
    );
  });
});
