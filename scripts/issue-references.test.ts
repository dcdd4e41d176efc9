import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments, test names and documentation state their reason in their own words: a tracker number means nothing to
 * a reader without the tracker, and says nothing once the work is done.
 */
const TRACKER_NUMBER = /\bissue ?#?\d+/i;

const repo = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'e2e', 'bench', 'scripts', 'docs', '.ci'];
const ROOT_FILES = ['README.md', 'vite.config.ts', 'vite.device.config.ts', 'playwright.config.ts', 'biome.json'];
const TEXT = /\.(ts|tsx|mts|mjs|js|md|json|html|css)$|^run$/;

/** The lines citing a tracker number, as `file:line: text`. */
function trackerReferences(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => (TRACKER_NUMBER.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

function sourceFiles(): string[] {
  const files = FOLDERS.flatMap((folder) =>
    readdirSync(join(repo, folder), { recursive: true, encoding: 'utf8' }).map((name) => `${folder}/${name}`),
  );
  return [...ROOT_FILES, ...files].filter((file) => TEXT.test(file.split('/').pop() ?? ''));
}

describe('trackerReferences', () => {
  const number = 15;

  it('finds a tracker number however it is written', () => {
    const sample = [`// see Issue ${number}`, 'fine', ` * (issue #${number} §2)`, `issue${number}`].join('\n');
    expect(trackerReferences('a.ts', sample)).toEqual([
      `a.ts:1: // see Issue ${number}`,
      `a.ts:3: * (issue #${number} §2)`,
      `a.ts:4: issue${number}`,
    ]);
  });

  it('leaves the word alone elsewhere', () => {
    expect(trackerReferences('a.md', `Issue a new code; reissue ${number} tokens; issues: none`)).toEqual([]);
  });
});

describe('code, tests and documentation', () => {
  it('cite no tracker numbers', () => {
    const found = sourceFiles().flatMap((file) => trackerReferences(file, readFileSync(join(repo, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
