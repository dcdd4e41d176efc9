import { describe, expect, it } from 'vitest';
import { type HostLookup, pushEndpointCheck, pushEndpointRefusal } from './push-endpoint-policy.ts';

const resolvesTo =
  (addresses: string[]): HostLookup =>
  async () =>
    addresses;
const PUBLIC = resolvesTo(['142.250.74.74']);

describe('the push endpoint policy', () => {
  it("accepts the browsers' push services over https on 443 at public addresses", async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://android.googleapis.com/gcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://api.push.apple.com/x',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://FCM.googleapis.com:443/fcm/send/abc',
    ]) {
      expect(await pushEndpointRefusal(endpoint, { allowOrigins: [], lookup: PUBLIC }), endpoint).toBeNull();
    }
  });

  it('refuses other hosts, look-alikes, other schemes and ports, and credentials in the URL', async () => {
    for (const endpoint of [
      'https://push.apple.com.attacker.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com.example/x',
      'https://push.attacker.example/x',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://u:p@fcm.googleapis.com/fcm/send/abc',
      'not a url',
    ]) {
      expect(await pushEndpointRefusal(endpoint, { allowOrigins: [], lookup: PUBLIC }), endpoint).not.toBeNull();
    }
  });

  it('refuses a push service name resolving to any loopback, private, link-local, unique-local or unspecified address', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
    ]) {
      // One bad address among good ones is enough: the connection could go to it.
      const refusal = await pushEndpointRefusal('https://fcm.googleapis.com/fcm/send/abc', {
        allowOrigins: [],
        lookup: resolvesTo(['142.250.74.74', address]),
      });
      expect(refusal, address).toContain(address);
    }
    expect(
      await pushEndpointRefusal('https://fcm.googleapis.com/x', {
        allowOrigins: [],
        lookup: async () => {
          throw new Error('ENOTFOUND');
        },
      }),
    ).toMatch(/does not resolve/);
  });

  it('trusts an origin the operator listed as it is: http, any port, loopback or private', async () => {
    const lookup: HostLookup = async () => {
      throw new Error('a listed origin is not looked up');
    };
    const policy = { allowOrigins: ['http://127.0.0.1:8089', 'https://push.acme.internal:8443'], lookup };
    expect(await pushEndpointRefusal('http://127.0.0.1:8089/push/1', policy)).toBeNull();
    expect(await pushEndpointRefusal('https://push.acme.internal:8443/p', policy)).toBeNull();
    // Only that origin: another port or scheme on the same host is not listed.
    expect(await pushEndpointRefusal('http://127.0.0.1:8090/push/1', policy)).not.toBeNull();
    expect(await pushEndpointRefusal('https://127.0.0.1:8089/push/1', policy)).not.toBeNull();
  });

  it('resolves the name once and answers the addresses it checked, for the push to connect to', async () => {
    let lookups = 0;
    const rebinding: HostLookup = async () => (++lookups === 1 ? ['142.250.74.74'] : ['169.254.169.254']);
    const check = await pushEndpointCheck('https://fcm.googleapis.com/fcm/send/abc', {
      allowOrigins: [],
      lookup: rebinding,
    });
    expect(check).toEqual({ refusal: null, addresses: ['142.250.74.74'] });
    expect(lookups).toBe(1);
  });
});
