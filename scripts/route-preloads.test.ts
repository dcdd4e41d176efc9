import { describe, expect, it } from 'vitest';
import { deferEntry, routePattern } from './route-preloads.ts';

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
