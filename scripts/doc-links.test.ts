import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, headingSlug, linksOf } from './doc-links.ts';

const repo = join(import.meta.dirname, '..');

describe('headingSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('Running it in production')).toBe('running-it-in-production');
    expect(headingSlug('Sign in with Active Directory')).toBe('sign-in-with-active-directory');
    expect(headingSlug('Versions (seed §9; "how a client selects a version: not shown")')).toBe(
      'versions-seed-9-how-a-client-selects-a-version-not-shown',
    );
    expect(headingSlug('Push message users (#8, #9, #10; seed §3)')).toBe('push-message-users-8-9-10-seed-3');
    expect(headingSlug('2.1 Login credentials (request body only)')).toBe('21-login-credentials-request-body-only');
    expect(headingSlug('The `useTestApp` harness and [its file](x.ts)')).toBe('the-usetestapp-harness-and-its-file');
    expect(headingSlug('snake_case stays, **bold** goes')).toBe('snake_case-stays-bold-goes');
  });
});

describe('anchorsOf and linksOf', () => {
  const sample = [
    '# Title',
    '## Twice',
    '## Twice',
    '<a id="kept"></a>',
    '```sh',
    '# not a heading [nor](a-link.md)',
    '```',
    'See [the api](docs/api.md#calling), ![shot](docs/a.png), `[code](not-a-link.md)`',
    '<img src="docs/b.png" alt="">',
  ].join('\n');

  it('numbers repeated headings and skips code blocks', () => {
    expect([...anchorsOf(sample)]).toEqual(['title', 'twice', 'twice-1', 'kept']);
  });

  it('finds Markdown links, images and HTML sources, not code', () => {
    expect(linksOf(sample)).toEqual(['docs/api.md#calling', 'docs/a.png', 'docs/b.png']);
  });
});

describe('brokenLinks', () => {
  const pages = new Map([
    [
      'README.md',
      '# Front\n\n## Demo accounts\n\n[ops](docs/ops.md#running) [up](#demo-accounts) [web](https://x.y/z#q)',
    ],
    ['docs/ops.md', '# Operations\n\n## Running\n\n[back](../README.md#demo-accounts) ![shot](shot.png)'],
  ]);
  const exists = (path: string) => path === 'docs/shot.png';

  it('accepts links to files, headings and the page itself, and ignores absolute URLs', () => {
    expect(brokenLinks(pages, exists)).toEqual([]);
  });

  it('reports a missing file, a missing heading and a path out of the repository', () => {
    const bad = new Map([
      ['README.md', '# Front\n\n[gone](docs/gone.md) [no anchor](docs/ops.md#nowhere) [self](#missing)'],
      ['docs/ops.md', '# Operations\n\n[out](../../elsewhere.md) <img src="missing.png">'],
    ]);
    expect(brokenLinks(bad, exists)).toEqual([
      { page: 'README.md', target: 'docs/gone.md', problem: 'no file docs/gone.md' },
      { page: 'README.md', target: 'docs/ops.md#nowhere', problem: 'no heading #nowhere in docs/ops.md' },
      { page: 'README.md', target: '#missing', problem: 'no heading #missing in README.md' },
      { page: 'docs/ops.md', target: '../../elsewhere.md', problem: 'points outside the repository' },
      { page: 'docs/ops.md', target: 'missing.png', problem: 'no file docs/missing.png' },
    ]);
  });
});

describe('the documentation', () => {
  it('has no broken relative link in README.md and docs/*.md', () => {
    const files = [
      'README.md',
      ...readdirSync(join(repo, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const pages = new Map(files.map((file) => [file, readFileSync(join(repo, file), 'utf8')]));
    expect(brokenLinks(pages, (path) => existsSync(join(repo, path)))).toEqual([]);
  });
});
