import { describe, expect, it } from 'vitest';
import { indefiniteArticle } from './article.ts';

describe('indefiniteArticle', () => {
  it('says "an" before a vowel and "a" otherwise', () => {
    expect(indefiniteArticle('Apple')).toBe('an');
    expect(indefiniteArticle(' iPhone')).toBe('an');
    expect(indefiniteArticle('Samsung')).toBe('a');
    expect(indefiniteArticle('')).toBe('a');
  });
});
