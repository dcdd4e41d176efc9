import { describe, expect, it } from 'vitest';
import { passwordWeakness } from './password-policy.ts';

describe('password policy', () => {
  it('refuses fewer than 12 and more than 128 characters', () => {
    expect(passwordWeakness('a'.repeat(11))).toMatch(/at least 12/);
    expect(passwordWeakness('x7#kq'.repeat(26))).toMatch(/at most 128/);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(passwordWeakness('🔑'.repeat(11))).toMatch(/at least 12/);
    expect(passwordWeakness('🔑🔐'.repeat(6))).toBeNull();
  });
  it('refuses passwords from the common list, whatever their case', () => {
    expect(passwordWeakness('qwerty123456')).toMatch(/common/);
    expect(passwordWeakness('QWERTY123456')).toMatch(/common/);
    expect(passwordWeakness('1q2w3e4r5t6y')).toMatch(/common/);
  });
  it('asks no composition rules: a long lower-case passphrase passes', () => {
    expect(passwordWeakness('correct horse battery staple')).toBeNull();
    expect(passwordWeakness('plain lowercase words')).toBeNull();
  });
});
