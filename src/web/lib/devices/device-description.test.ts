import { describe, expect, it } from 'vitest';
import { describeThisDevice, loadUserAgentParser, readableUserAgent } from './device-description.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const REDUCED_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

describe('describeThisDevice', () => {
  it('reads an iPhone from its User-Agent', async () => {
    expect(await describeThisDevice({ userAgent: IPHONE, maxTouchPoints: 5 })).toEqual({
      DeviceType: 'iOS',
      Manufacturer: 'Apple',
      Model: 'iPhone',
      OsVersion: '18.1',
    });
  });

  it("writes an iPhone's version with dots, however the browser spells it (17.0, never 17_0)", async () => {
    const iphone17 = IPHONE.replaceAll('18_1', '17_0').replace('Version/18.1', 'Version/17.0');
    expect((await describeThisDevice({ userAgent: iphone17, maxTouchPoints: 5 })).OsVersion).toBe('17.0');
    // A browser's Client Hints in Apple's spelling.
    const hinted = await describeThisDevice({
      userAgent: iphone17,
      maxTouchPoints: 5,
      userAgentData: {
        mobile: true,
        platform: 'iOS',
        getHighEntropyValues: async () => ({ platform: 'iOS', model: 'iPhone', platformVersion: '17_0' }),
      },
    });
    expect(hinted).toMatchObject({ DeviceType: 'iOS', OsVersion: '17.0' });
  });

  it('tells an iPad asking for desktop pages from a Mac by its touch screen', async () => {
    expect(await describeThisDevice({ userAgent: IPAD_AS_MAC, maxTouchPoints: 5 })).toMatchObject({
      DeviceType: 'iOS',
      Model: 'iPad',
    });
    expect(await describeThisDevice({ userAgent: IPAD_AS_MAC, maxTouchPoints: 0 })).toMatchObject({
      DeviceType: 'macOS',
    });
  });

  it('prefers User-Agent Client Hints, which still carry the model and OS version the reduced string hides', async () => {
    const described = await describeThisDevice({
      userAgent: REDUCED_ANDROID,
      maxTouchPoints: 5,
      userAgentData: {
        mobile: true,
        platform: 'Android',
        getHighEntropyValues: async () => ({ platform: 'Android', model: 'Pixel 9', platformVersion: '15.0.0' }),
      },
    });
    expect(described).toEqual({ DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15.0.0' });
    // Without the hints, the reduced string's "K" is no model at all.
    expect(await describeThisDevice({ userAgent: REDUCED_ANDROID, maxTouchPoints: 5 })).toMatchObject({
      DeviceType: 'Android',
      Model: '',
    });
  });
});

describe('readableUserAgent', () => {
  it('says which browser on which system asked', async () => {
    const parser = await loadUserAgentParser();
    expect(readableUserAgent(parser, IPHONE)).toBe('Mobile Safari 18 on iOS 18.1');
    expect(readableUserAgent(parser, 'curl/8.5.0')).toBe('curl/8.5.0');
  });
});
