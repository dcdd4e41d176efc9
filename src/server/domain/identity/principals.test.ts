import { describe, expect, it } from 'vitest';
import { hasPermission, type Principal, userKeyOf } from './principals.ts';

const principal = (Permissions: string[]): Principal => ({
  id: 1,
  userName: 'CORP\\someone',
  userKey: 'corp\\someone',
  grants: [{ Entity: 'Security', Permissions }],
  kind: 'Person',
});

describe('permissions (seed §5.4)', () => {
  it('grants exactly what was granted: Write does not imply Read, nor Read Write', () => {
    expect(hasPermission(principal(['Write']), 'Security', 'Write')).toBe(true);
    expect(hasPermission(principal(['Write']), 'Security', 'Read')).toBe(false);
    expect(hasPermission(principal(['Read']), 'Security', 'Write')).toBe(false);
    expect(hasPermission(principal(['Read', 'Write']), 'Security', 'Read')).toBe(true);
    expect(hasPermission(principal([]), 'Security', 'Read')).toBe(false);
  });

  it('grants per entity', () => {
    expect(hasPermission(principal(['Read', 'Write']), 'Instructions', 'Read')).toBe(false);
  });

  it('compares user names case-insensitively and ignores surrounding spaces', () => {
    expect(userKeyOf(' DEMO\\Admin ')).toBe(userKeyOf('demo\\admin'));
  });
});
