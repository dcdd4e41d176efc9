import { describe, expect, it } from 'vitest';
import { deferEntry, entryStages, routePattern, STAGE_MIN_BYTES } from './route-preloads.ts';

describe('routePattern', () => {
  const matches = (routeFile: string, path: string) => new RegExp(routePattern(routeFile)).test(path);

  it('drops pathless layouts and index, and lets a parameter match one segment', () => {
    expect(matches('_app/authorization-requests/index', '/authorization-requests')).toBe(true);
    expect(matches('_app/authorization-requests/index', '/authorization-requests/')).toBe(true);
    expect(matches('_app/authorization-requests/$id', '/authorization-requests/12')).toBe(true);
    expect(matches('_app/authorization-requests/$id', '/authorization-requests/12/history')).toBe(false);
    expect(matches('_app/authorization-requests/$id', '/authorization-requests')).toBe(false);
    expect(matches('index', '/')).toBe(true);
    expect(matches('index', '/push-users')).toBe(false);
  });

  it('matches a segment literally, never as a pattern', () => {
    expect(matches('_app/a.b', '/a.b')).toBe(true);
    expect(matches('_app/a.b', '/axb')).toBe(false);
  });
});

describe('deferEntry', () => {
  it('leaves downloading and running the entry to route-preload.js', () => {
    const html = '<head><script type="module" crossorigin src="/assets/index-abc.js"></script></head>';
    expect(deferEntry(html)).toBe(
      '<head><meta name="app-entry" id="app-entry" content="/assets/index-abc.js" /></head>',
    );
  });

  it('refuses a page without a module entry rather than build a page that never starts', () => {
    expect(() => deferEntry('<head></head>')).toThrow(/no module entry/);
  });
});

describe('deferEntry with stages', () => {
  const html =
    '<head><script type="module" crossorigin src="/assets/index-abc.js"></script>\n' +
    '    <link rel="modulepreload" crossorigin href="/assets/runtime-1.js">\n' +
    '    <link rel="modulepreload" crossorigin href="/assets/react-dom-2.js"></head>';

  it('names the chunks route-preload.js evaluates first, and does not download them before the first paint', () => {
    const deferred = deferEntry(html, ['/assets/react-dom-2.js']);
    expect(deferred).toContain('<meta name="app-stages" id="app-stages" content="/assets/react-dom-2.js" />');
    expect(deferred).not.toContain('href="/assets/react-dom-2.js"');
    // The runtime is no stage: small, it keeps its preload.
    expect(deferred).toContain('<link rel="modulepreload" crossorigin href="/assets/runtime-1.js">');
  });

  it('refuses a stage index.html does not name, rather than guess where it is loaded', () => {
    expect(() => deferEntry(html, ['/assets/elsewhere.js'])).toThrow(/does not preload the entry's chunk/);
  });
});

describe('entryStages', () => {
  const big = 'x'.repeat(STAGE_MIN_BYTES);
  const chunk = (fileName: string, imports: string[], code = big, isEntry = false) => ({
    fileName,
    imports,
    code,
    isEntry,
  });

  it("orders the entry's large imports after what they import, and leaves the small ones to the entry", () => {
    const chunks = [
      chunk('index.js', ['runtime.js', 'mantine.js', 'react-dom.js'], big, true),
      chunk('runtime.js', [], 'tiny'),
      chunk('mantine.js', ['react-dom.js', 'runtime.js']),
      chunk('react-dom.js', ['runtime.js']),
      chunk('page.js', ['mantine.js']),
    ];
    expect(entryStages(chunks)).toEqual(['react-dom.js', 'mantine.js']);
  });

  it('ends on chunks that import each other in a circle', () => {
    const chunks = [chunk('index.js', ['a.js'], big, true), chunk('a.js', ['b.js']), chunk('b.js', ['a.js'])];
    expect(entryStages(chunks)).toEqual(['a.js']);
  });

  it('is empty without an entry', () => {
    expect(entryStages([chunk('page.js', [])])).toEqual([]);
  });
});
