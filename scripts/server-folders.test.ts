import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A folder of the service is read at once: past a dozen files, its subjects get folders of their own
// (docs/architecture.md, "The service's layers"). Test helpers (src/server/test/) are tools, not a subject. The
// versioned migrations are kept ten to a folder (db/migrations/001-009/, 010-019/), so they need no exemption.
const EXEMPT = new Set(['test']);
const repo = join(import.meta.dirname, '..');
const server = join(repo, 'src', 'server');
const MOST = 12;

function folders(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  return [dir, ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => folders(join(dir, entry.name)))];
}

const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('-test.ts');

describe('folders of src/server', () => {
  for (const dir of folders(server).filter((dir) => !EXEMPT.has(relative(server, dir)))) {
    it(`${relative(repo, dir) || 'src/server'} holds at most ${MOST} source files directly`, () => {
      const files = readdirSync(dir).filter(isSource);
      expect(files.length, files.join(', ')).toBeLessThanOrEqual(MOST);
    });
  }
});
