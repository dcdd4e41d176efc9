import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../src/web/wiring/pages.tsx';

// What PAGES knows and other lists repeat because they cannot import it (the build's chunk rules, the outlines):
// each list is checked against PAGES, so adding a page fails here until every list has it.
const repo = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

describe('lists that repeat the signed-in pages', () => {
  it("vite.config.ts's loaders chunk names every page's icon", () => {
    const listed = /Icon\(([A-Za-z|]+)\)\\\.mjs/.exec(read('vite.config.ts'))?.[1]?.split('|') ?? [];
    const icons = Object.values(PAGES).map((page) => {
      const type = page.icon.type as { displayName?: string; render?: { displayName?: string } };
      return (type.displayName ?? type.render?.displayName ?? '').replace(/^Icon/, '');
    });
    expect(new Set(listed)).toEqual(new Set(icons));
  });

  it('every page has a first-paint outline, or a reason here why not', () => {
    // Pages that do not open on their header (scripts/page-outlines.render.tsx says why).
    const withoutOutline: Record<string, string> = {
      settings: 'reachable signed out, where the sign-in outline shows instead',
      demo: 'asks the server whether demo mode is on first, and has no header when it is off',
    };
    const listed = /const OUTLINED = \[([^\]]*)\]/.exec(read('scripts/page-outlines.render.tsx'))?.[1] ?? '';
    const outlined = [...listed.matchAll(/'(\w+)'/g)].map((match) => match[1]);
    expect(new Set([...outlined, ...Object.keys(withoutOutline)])).toEqual(new Set(Object.keys(PAGES)));
  });
});
