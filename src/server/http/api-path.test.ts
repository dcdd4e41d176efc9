import { describe, expect, it } from 'vitest';
import { isApiPath, pathVersionOf, servedAtRoot, stripVersionSegment } from './api-path.ts';

describe('isApiPath', () => {
  it('matches /api and what is under it, in any letter case', () => {
    for (const url of ['/api', '/api/', '/api?x=1', '/api/Consumer/Version', '/API/Consumer/Version', '/Api/x?y']) {
      expect(isApiPath(url), url).toBe(true);
    }
  });

  it('matches the Consumer interface at the site root, in any letter case', () => {
    for (const url of ['/Consumer', '/consumer/Authentication', '/CONSUMER?x', '/ConsumerAuthentication/Token']) {
      expect(isApiPath(url), url).toBe(true);
    }
  });

  it('does not match pages that merely start with the same letters', () => {
    for (const url of ['/', '/apis', '/api-docs', '/push-users', '/ap', '', '/consumers', '/demo', '/Consumer-x']) {
      expect(isApiPath(url), url).toBe(false);
    }
  });
});

describe('servedAtRoot', () => {
  it('is the Consumer interface only', () => {
    expect(servedAtRoot('/Consumer/Authentication')).toBe(true);
    expect(servedAtRoot('/ConsumerAuthentication/Token')).toBe(true);
    expect(servedAtRoot('/Demo/Reset')).toBe(false);
    expect(servedAtRoot('/health/live')).toBe(false);
  });
});

describe('stripVersionSegment', () => {
  const strip = (url: string) => {
    const request: { url: string } = { url };
    return [stripVersionSegment(request), pathVersionOf(request)];
  };

  it('takes a v{major}.{minor} segment right after /Consumer/ out of the URL, at both prefixes', () => {
    expect(strip('/Consumer/v3.2/Authentication')).toEqual(['/Consumer/Authentication', '3.2']);
    expect(strip('/api/consumer/V4.0/PushMessageUsers/3?x=1')).toEqual(['/api/consumer/PushMessageUsers/3?x=1', '4.0']);
    // An unsupported version is still the requested one: versioning refuses it.
    expect(strip('/Consumer/v9.9/Version')).toEqual(['/Consumer/Version', '9.9']);
  });

  it('leaves every other URL alone', () => {
    for (const url of ['/Consumer/Authentication', '/Consumer/v3.2', '/Consumer/v3/Version', '/x/Consumer/v3.2/a']) {
      expect(strip(url)).toEqual([url, undefined]);
    }
  });
});
