import { describe, expect, it } from 'vitest';
import { API_SECRET_PREFIX, generateApiSecret } from './api-secrets.ts';

describe('API account secrets', () => {
  it('are 160 random bits in letters and digits, behind a recognisable prefix', () => {
    const secrets = Array.from({ length: 200 }, generateApiSecret);
    for (const secret of secrets) expect(secret).toMatch(/^tcs_[a-z2-7]{32}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
    // 32 characters of 5 bits each: 160 bits, every character position used.
    const seen = new Set(secrets.flatMap((secret) => [...secret.slice(API_SECRET_PREFIX.length)]));
    expect(seen.size).toBe(32);
  });
});
