import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../src/shared/stored-session.ts';
import { passkeyAddressFor } from '../src/web/lib/devices/loopback-url.ts';

// The boot screen is a plain script served as it is (the CSP allows only the app's own files, and it runs before any
// bundle), so it cannot import the key: this keeps its copy equal to the one home.
describe('the boot screen', () => {
  it('reads the session under the key the dashboard stores it at', () => {
    const script = readFileSync(new URL('../public/boot-screen.js', import.meta.url), 'utf8');
    const keys = [...script.matchAll(/sessionStorage\.getItem\('([^']+)'\)/g)].map((match) => match[1]);
    expect(keys).toEqual([SESSION_STORAGE_KEY]);
  });

  // What it marks on <html> for the sign-in methods outline's note, run at an address as a browser runs it.
  function bootAt(url: string) {
    const script = readFileSync(new URL('../public/boot-screen.js', import.meta.url), 'utf8');
    const attributes = new Map<string, string>();
    const properties = new Map<string, string>();
    const documentElement = {
      setAttribute: (name: string, value: string) => attributes.set(name, value),
      style: { setProperty: (name: string, value: string) => properties.set(name, value) },
    };
    const window = { location: new URL(url), sessionStorage: { getItem: () => '{}' } };
    new Function('window', 'document', script)(window, { documentElement, getElementById: () => null });
    return { passkeys: attributes.get('data-boot-passkeys'), properties };
  }

  it('shows the passkey note’s variant the page shows at each address, with its address', () => {
    for (const url of [
      'http://127.0.0.1:3000/sign-in-methods',
      'http://127.8.0.1/sign-in-methods',
      'http://[::1]:3000/sign-in-methods',
      'http://10.0.0.7:3000/sign-in-methods',
      'http://[fe80::1]/sign-in-methods',
      'http://localhost:3000/sign-in-methods',
      'https://mfa.example.com/sign-in-methods',
      'http://1270.0.0.1.example/sign-in-methods',
    ]) {
      const elsewhere = passkeyAddressFor(url);
      const boot = bootAt(url);
      expect(boot.passkeys, url).toBe(elsewhere === undefined ? undefined : elsewhere === null ? 'ip' : 'loopback');
      if (elsewhere === undefined) continue;
      expect(boot.properties.get('--boot-host'), url).toBe(JSON.stringify(new URL(url).hostname));
      if (elsewhere) expect(boot.properties.get('--boot-origin'), url).toBe(JSON.stringify(new URL(elsewhere).origin));
    }
  });
});
