import { posix } from 'node:path';

/**
 * Relative links in the documentation, checked the way GitHub renders them: a link names a file beside the page
 * (or above it), optionally with a `#fragment` that must be one of that file's heading anchors.
 */

/** A link whose target could not be found: the page it is on, what it says, and why it fails. */
export interface BrokenLink {
  page: string;
  target: string;
  problem: string;
}

const FENCE = /^\s*(```|~~~)/;

/** The page's lines outside fenced code blocks, where neither headings nor links exist. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines;
}

/** Text as GitHub renders a heading: code spans, links, images and emphasis reduced to their words. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '');
}

/**
 * GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `-` and `_` stay), each space a
 * hyphen. Emphasis marks are punctuation, so they go as well.
 */
export function headingSlug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings (a repeated one gets `-1`, `-2`, ...) and explicit `id`/`name`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  }
  return anchors;
}

/** Link targets on a page: Markdown links and images, and HTML `href`/`src`; code spans are not links. */
export function linksOf(markdown: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1] as string);
    for (const match of prose.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push(match[1] as string);
  }
  return links;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Checks every relative link of the given pages (paths relative to the repository, with `/`). `pages` holds the
 * Markdown files whose anchors can be checked; `exists` answers for any other file a link may name.
 */
export function brokenLinks(pages: ReadonlyMap<string, string>, exists: (path: string) => boolean): BrokenLink[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsFor = (path: string) => {
    let found = anchors.get(path);
    if (!found) {
      found = anchorsOf(pages.get(path) ?? '');
      anchors.set(path, found);
    }
    return found;
  };
  const broken: BrokenLink[] = [];
  for (const [page, markdown] of pages) {
    for (const target of linksOf(markdown)) {
      if (ABSOLUTE.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const pathPart = hash === -1 ? target : target.slice(0, hash);
      const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const file = pathPart === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURI(pathPart)));
      if (file.startsWith('../') || file.startsWith('/')) {
        broken.push({ page, target, problem: 'points outside the repository' });
      } else if (!pages.has(file) && !exists(file)) {
        broken.push({ page, target, problem: `no file ${file}` });
      } else if (fragment !== null && file.endsWith('.md') && !anchorsFor(file).has(fragment)) {
        broken.push({ page, target, problem: `no heading #${fragment} in ${file}` });
      }
    }
  }
  return broken;
}
