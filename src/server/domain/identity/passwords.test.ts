import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { hashCostOf, hashPassword, verifyPassword } from './passwords.ts';

const COST = 1024;

describe('password hashing (SPEC §3: scrypt, per-user salt)', () => {
  it('stores scrypt with its cost, block size, parallelism, salt and key', async () => {
    const stored = await hashPassword('Admin#2026', COST);
    const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
    expect(scheme).toBe('scrypt');
    expect(Number(n)).toBe(COST);
    expect(Number(r)).toBeGreaterThanOrEqual(8);
    expect(Number(p)).toBeGreaterThanOrEqual(1);
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(rest).toEqual([]);
    expect(stored).not.toContain('Admin#2026');
  });

  it('salts every hash: the same password hashes differently each time', async () => {
    const first = await hashPassword('same', COST);
    const second = await hashPassword('same', COST);
    expect(first).not.toBe(second);
    expect(await verifyPassword('same', first)).toBe(true);
    expect(await verifyPassword('same', second)).toBe(true);
  });

  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('Helpdesk#2026', COST);
    expect(await verifyPassword('Helpdesk#2026', stored)).toBe(true);
    for (const wrong of ['helpdesk#2026', 'Helpdesk#2026 ', '', 'Helpdesk#2027']) {
      expect(await verifyPassword(wrong, stored)).toBe(false);
    }
  });

  it('treats Unicode compositions of the same password alike', async () => {
    const stored = await hashPassword('Caf\u00e9', COST);
    expect(await verifyPassword('Cafe\u0301', stored)).toBe(true);
  });

  it('refuses malformed or foreign stored hashes instead of throwing', async () => {
    const stored = await hashPassword('x', COST);
    for (const bad of ['', 'plain', stored.replace(/^scrypt/, 'bcrypt'), 'scrypt$1024$8$1$$']) {
      expect(await verifyPassword('x', bad)).toBe(false);
    }
  });

  it('reads the cost a stored hash was made with', async () => {
    expect(hashCostOf(await hashPassword('x', COST))).toBe(COST);
    expect(hashCostOf(await hashPassword('x', 2 * COST))).toBe(2 * COST);
    for (const foreign of ['', 'bcrypt$10$abc', 'scrypt$many$8$1$s$h']) expect(hashCostOf(foreign)).toBeNull();
  });

  // A stored hash at a lower cost is brought up to this one at the next sign-in: authentication.test.ts, "#1
  // password hashes made at an older cost".
  it('defaults to N=2^17 (r=8, p=1), OWASP’s minimum for scrypt, and hashes and verifies at that cost', async () => {
    const cost = loadConfig({}, '/srv/tachyon').passwordHashCost;
    expect(cost).toBe(2 ** 17);
    // 128 * N * r = 128 MiB of scrypt memory: more than Node allows unless maxmem is raised.
    const stored = await hashPassword('violet harbour lantern 42', cost);
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** 17), '8', '1']);
    expect(await verifyPassword('violet harbour lantern 42', stored)).toBe(true);
  }, 30_000);
});
