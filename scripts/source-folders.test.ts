import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A folder of the service or the web is read at once: past a dozen files, its subjects get folders of their own
// (docs/architecture.md, "Folders of a dozen files"). A file's tests sit beside it and do not count. Test helpers
// (src/server/test/) are tools, not a subject. The versioned migrations are kept ten to a folder
// (db/migrations/001-009/, 010-019/), so they need no exemption.
const EXEMPT = new Set(['src/server/test']);
const repo = join(import.meta.dirname, '..');
const ROOTS = ['src/server', 'src/web'];
const MOST = 12;

function folders(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  return [dir, ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => folders(join(dir, entry.name)))];
}

const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('-test.ts');

for (const root of ROOTS) {
  describe(`folders of ${root}`, () => {
    for (const dir of folders(join(repo, root)).filter((dir) => !EXEMPT.has(relative(repo, dir)))) {
      it(`${relative(repo, dir)} holds at most ${MOST} source files directly`, () => {
        const files = readdirSync(dir).filter(isSource);
        expect(files.length, files.join(', ')).toBeLessThanOrEqual(MOST);
      });
    }
  });
}

describe('the folder cap', () => {
  it('counts modules and components, not their tests', () => {
    const names = ['a.ts', 'b.tsx', 'c.test.ts', 'd.test.tsx', 'e.ldap.test.ts', 'f.module.css', 'g.md'];
    expect(names.filter(isSource)).toEqual(['a.ts', 'b.tsx']);
  });

  it('finds a nested folder of thirteen source files, and not one of twelve beside their tests', () => {
    const root = mkdtempSync(join(tmpdir(), 'source-folders-'));
    try {
      for (const [folder, count] of [
        ['full/deeper', 13],
        ['fine', 12],
      ] as const) {
        mkdirSync(join(root, folder), { recursive: true });
        for (let index = 0; index < count; index++) {
          writeFileSync(join(root, folder, `m${index}.ts`), '');
          writeFileSync(join(root, folder, `m${index}.test.ts`), '');
        }
      }
      const over = folders(root).filter((dir) => readdirSync(dir).filter(isSource).length > MOST);
      expect(over.map((dir) => relative(root, dir))).toEqual(['full/deeper']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
