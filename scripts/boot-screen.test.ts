import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../src/shared/stored-session.ts';

// The boot screen is a plain script served as it is (the CSP allows only the app's own files, and it runs before any
// bundle), so it cannot import the key: this keeps its copy equal to the one home.
describe('the boot screen', () => {
  it('reads the session under the key the dashboard stores it at', () => {
    const script = readFileSync(new URL('../public/boot-screen.js', import.meta.url), 'utf8');
    const keys = [...script.matchAll(/sessionStorage\.getItem\('([^']+)'\)/g)].map((match) => match[1]);
    expect(keys).toEqual([SESSION_STORAGE_KEY]);
  });
});
