import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GROUP_SOURCES, type BundleGroup, groupPattern } from './bundle-groups.ts';

const repo = join(import.meta.dirname, '..');
const groups = Object.keys(BUNDLE_GROUP_SOURCES) as BundleGroup[];

describe('bundle groups (vite.config.ts)', () => {
  for (const group of groups) {
    it(`every folder and file of ${group} exists, as a folder or a file as written`, () => {
      const missing = BUNDLE_GROUP_SOURCES[group].filter((source) => {
        const path = join(repo, source);
        if (!existsSync(path)) return true;
        return source.endsWith('/') ? !statSync(path).isDirectory() : !statSync(path).isFile();
      });
      expect(missing).toEqual([]);
    });
  }

  it('no module is in two groups', () => {
    const all = groups.flatMap((group) => BUNDLE_GROUP_SOURCES[group].map((source) => ({ group, source })));
    const clashes = all.filter(({ group, source }) =>
      all.some((other) => other.group !== group && (other.source === source || source.startsWith(other.source))),
    );
    expect(clashes).toEqual([]);
  });

  it('a pattern matches its folders and files with either separator, and nothing beside them', () => {
    const loaders = new RegExp(groupPattern('loaders'));
    expect(loaders.test('/repo/src/web/wiring/pages.tsx')).toBe(true);
    expect(loaders.test(String.raw`C:\repo\src\web\api\queries\queries.ts`)).toBe(true);
    expect(loaders.test('/repo/src/web/api/queries/queries.tsx.map')).toBe(false);
    expect(loaders.test('/repo/src/web/api/queries/mutations.ts')).toBe(false);
    expect(loaders.test('/repo/src/web/wiringx/pages.tsx')).toBe(false);
    expect(new RegExp(groupPattern('signed-in')).test('/repo/src/web/lib/use-phone.ts')).toBe(true);
  });
});
