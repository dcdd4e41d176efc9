import { describe, expect, it } from 'vitest';
import { PAGES } from '../src/web/wiring/pages.tsx';
import { outlinePattern, renderPageOutlines } from './page-outlines.render.tsx';
import { insertOutlines } from './page-outlines.ts';

describe('outlinePattern', () => {
  const matches = (pagePath: string, path: string) => new RegExp(outlinePattern(pagePath)).test(path);

  it('matches the page, with or without a trailing slash, and nothing below it', () => {
    expect(matches('/push-users', '/push-users')).toBe(true);
    expect(matches('/push-users', '/push-users/')).toBe(true);
    expect(matches('/push-users', '/push-users/12')).toBe(false);
    expect(matches('/', '/')).toBe(true);
    expect(matches('/', '/push-users')).toBe(false);
  });
});

describe('insertOutlines', () => {
  const html =
    '<head><script src="/boot-screen.js"></script><link rel="stylesheet" href="/assets/index.css"></head>' +
    '<body><div class="boot-main"></div></body>';
  const outlines = [{ key: 'pushUsers', pattern: '^/push-users/?$', html: '<h1>Push users</h1>' }];

  it('adds the table before the boot script, the outlines to the layout, and the theme after the stylesheet', () => {
    expect(insertOutlines(html, '<style>:root{}</style>', outlines)).toBe(
      '<head><script type="application/json" id="page-outlines">[["^/push-users/?$","pushUsers"]]</script>' +
        '<script src="/boot-screen.js"></script><link rel="stylesheet" href="/assets/index.css">' +
        '<style>:root{}</style><style>html[data-boot-page="pushUsers"] .boot-page[data-page="pushUsers"]' +
        '{display:block}</style></head><body><div class="boot-main"><div class="boot-content">' +
        '<div class="boot-page" data-page="pushUsers"><h1>Push users</h1></div></div></div></body>',
    );
  });

  it('keeps a dollar sign in the rendered text as it is', () => {
    const priced = [{ key: 'pushUsers', pattern: '^/push-users/?$', html: "<p>$& $' $1</p>" }];
    expect(insertOutlines(html, '', priced)).toContain("<p>$& $' $1</p>");
  });

  it('refuses an index.html it cannot place them in', () => {
    expect(() => insertOutlines(html.replace('<div class="boot-main"></div>', ''), '', outlines)).toThrow(/boot-main/);
    expect(() => insertOutlines(html.replace('/boot-screen.js', '/other.js'), '', outlines)).toThrow(/boot-screen/);
  });
});

describe('renderPageOutlines', () => {
  it('renders each outlined page’s heading and description from its entry in PAGES', () => {
    const { themeStyle, outlines } = renderPageOutlines();
    expect(themeStyle).toMatch(/^<style data-mantine-styles="true">:root/);
    expect(outlines.length).toBeGreaterThan(0);
    for (const page of Object.values(PAGES)) {
      const outline = outlines.find((candidate) => new RegExp(candidate.pattern).test(page.to));
      if (!outline) continue;
      expect(outline.html).toContain(`data-order="1">${page?.label}</h1>`);
      expect(outline.html).toContain(`>${page?.description}</p>`);
    }
  });

  it('draws the two-factor page down to the paragraph under its token form, a phone’s largest text', () => {
    const twoFactor = renderPageOutlines().outlines.find((outline) => outline.key === 'twoFactor');
    expect(twoFactor?.html).toContain('>Submit token</span>');
    expect(twoFactor?.html).toMatch(/>Makes an instruction named “Dashboard test” that needs two-factor, [^<]*<\/p>/);
  });

  it('keeps the ids an outline generates, and the style rules named from them, to that outline', () => {
    const seen = new Map<string, string>();
    for (const outline of renderPageOutlines().outlines) {
      const names = new Set(
        Array.from(outline.html.matchAll(/__m__-[\w-]+|mantine-[\w-]*R_[\w-]+/g), ([name]) => name),
      );
      for (const name of names) {
        expect(seen.get(name), `${name} in ${outline.key}`).toBeUndefined();
        seen.set(name, outline.key);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
