import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, passkeyAddressFor } from './loopback-url.ts';

describe('passkeyAddressFor', () => {
  it('sends a page opened at a loopback IP address to the same page at localhost', () => {
    expect(passkeyAddressFor('http://127.0.0.1:3000/sign-in-methods?next=%2F#x')).toBe(
      'http://localhost:3000/sign-in-methods?next=%2F#x',
    );
    expect(passkeyAddressFor('http://[::1]:8080/login')).toBe('http://localhost:8080/login');
  });

  it('cannot name the address for another IP address, and has nothing to say at a name', () => {
    expect(passkeyAddressFor('https://192.0.2.10/login')).toBeNull();
    expect(passkeyAddressFor('http://localhost:3000/login')).toBeUndefined();
    expect(passkeyAddressFor('https://tachyon.acme.example/')).toBeUndefined();
  });
});

describe('isLoopbackUrl', () => {
  it('knows the machine it is opened on', () => {
    expect(isLoopbackUrl('http://127.0.0.2:3000')).toBe(true);
    expect(isLoopbackUrl('https://tachyon.acme.example')).toBe(false);
  });
});
