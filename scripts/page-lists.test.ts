import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../src/web/wiring/pages.tsx';
import { BUNDLE_GROUP_SOURCES, PAGES_MODULE, pageIcons } from './bundle-groups.ts';
import { OUTLINED, WITHOUT_OUTLINE } from './page-outlines.render.tsx';

// What the build and the browser tests need of the signed-in pages comes from PAGES (vite.config.ts's loaders icons,
// the outlines, the phone test's pages); what cannot be derived is checked against it here, so a new page fails
// this test until every list has it.
const repo = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

describe('lists that follow the signed-in pages', () => {
  it("the loaders chunk's icons, read from the page list's import, are every page's icon", () => {
    const icons = Object.values(PAGES).map((page) => {
      const type = page.icon.type as { displayName?: string; render?: { displayName?: string } };
      return `Icon${type.displayName ?? type.render?.displayName ?? ''}`;
    });
    expect(new Set(pageIcons())).toEqual(new Set(icons));
  });

  it("what the page list imports (the pages' queries) is in the loaders chunk", () => {
    const imports = [...read(PAGES_MODULE).matchAll(/^import \{[^}]*\} from '(\.[^']+)';/gm)].map((match) =>
      resolve(repo, dirname(PAGES_MODULE), match[1] ?? '').slice(repo.length + 1),
    );
    expect(imports.length).toBeGreaterThan(0);
    const inLoaders = (file: string) =>
      BUNDLE_GROUP_SOURCES.loaders.some((source) => (source.endsWith('/') ? file.startsWith(source) : file === source));
    expect(imports.filter((file) => !inLoaders(file))).toEqual([]);
  });

  it('every page has a first-paint outline unless it says why not, and the exceptions are pages', () => {
    expect(Object.keys(WITHOUT_OUTLINE).filter((key) => !(key in PAGES))).toEqual([]);
    expect(new Set([...OUTLINED, ...Object.keys(WITHOUT_OUTLINE)])).toEqual(new Set(Object.keys(PAGES)));
    expect(OUTLINED).toContain('pushUsers');
  });

  it('e2e/accessibility.spec.ts judges every page with axe, or another spec does and says so here', () => {
    const judgedElsewhere: Record<string, string> = { '/people': 'e2e/people.spec.ts' };
    for (const [path, spec] of Object.entries(judgedElsewhere)) {
      expect(read(spec)).toContain(`page.goto('${path}')`);
      expect(read(spec)).toContain('expectAccessible(page');
    }
    const judged = [...read('e2e/accessibility.spec.ts').matchAll(/path: '([^'?]+)/g)].map((match) => match[1]);
    const missing = Object.values(PAGES)
      .map((page) => page.to)
      .filter((to) => !judged.includes(to) && !(to in judgedElsewhere));
    expect(missing).toEqual([]);
  });
});
