import { describe, expect, it } from 'vitest';
import { isApiPath } from './api-path.ts';

describe('isApiPath', () => {
  it('matches /api and what is under it, in any letter case', () => {
    for (const url of ['/api', '/api/', '/api?x=1', '/api/Consumer/Version', '/API/Consumer/Version', '/Api/x?y']) {
      expect(isApiPath(url), url).toBe(true);
    }
  });

  it('does not match pages that merely start with the same letters', () => {
    for (const url of ['/', '/apis', '/api-docs', '/push-users', '/ap', '']) expect(isApiPath(url), url).toBe(false);
  });
});
