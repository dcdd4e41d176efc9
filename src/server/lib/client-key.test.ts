import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  it('counts IPv4 clients per address, also when written as IPv4-mapped IPv6', () => {
    expect(clientKey('10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey('10.1.2.4')).not.toBe(clientKey('10.1.2.3'));
  });

  it('counts IPv6 clients by their /64, however the address is written', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
  });

  it('leaves anything else as it is', () => {
    expect(clientKey('not-an-address')).toBe('not-an-address');
  });
});
