import { describe, expect, it } from 'vitest';
import { PROBLEM_KINDS, problemKind, problemType } from './problems.ts';

describe('problem types', () => {
  it('round-trips every kind through its type URI', () => {
    for (const kind of PROBLEM_KINDS) {
      expect(problemType(kind)).toMatch(/^https:\/\//);
      expect(problemKind(problemType(kind))).toBe(kind);
    }
  });

  it('knows nothing of foreign or unknown types', () => {
    expect(problemKind('about:blank')).toBeNull();
    expect(problemKind(problemType('not-found').replace('not-found', 'no-such-kind'))).toBeNull();
  });
});
