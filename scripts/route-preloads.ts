import path from 'node:path';
import type { Plugin } from 'vite';
import { regExpLiteral } from './regexp-literal.ts';

/** A built chunk as far as this plugin reads it. */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  code: string;
}

/** The tag in index.html that loads public/route-preload.js. */
const READER = '<script src="/route-preload.js"></script>';

const ROUTE_CHUNK = /[\\/]src[\\/]web[\\/]routes[\\/](.+)\.tsx\?tsr-split=/;

/** `_app/authorization-requests/$id` → `^/authorization-requests/[^/]+/?$`; pathless `_layout` segments vanish. */
export function routePattern(routeFile: string): string {
  const segments = routeFile
    .split('/')
    .filter((segment) => !segment.startsWith('_') && segment !== 'index')
    .map((segment) => (segment.startsWith('$') ? '[^/]+' : regExpLiteral(segment)));
  return segments.length === 0 ? '^/$' : `^/${segments.join('/')}/?$`;
}

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

/** A chunk of the entry's own imports large enough to be evaluated in a task of its own (React DOM's is ~190 KB). */
export const STAGE_MIN_BYTES = 20_000;

/**
 * The entry is neither downloaded nor run by index.html: public/route-preload.js imports it once the first frame,
 * index.html's outline of the page, is painted. Run as a module script it would evaluate before that paint (a phone
 * would show a blank page for as long as it takes); downloaded from the start it would share a slow connection with
 * the stylesheet that first paint waits for (the entry is six times its size).
 *
 * `stages`: chunks the entry imports, which route-preload.js imports first, one task each, so that evaluating the
 * app's code is not one long task (React DOM's chunk, see the groups in vite.config.ts). They lose the modulepreload
 * link Vite gives the entry's imports, for the same reason as the entry.
 */
export function deferEntry(html: string, stages: readonly string[] = []): string {
  const entry = ENTRY.exec(html);
  if (!entry) throw new Error('index.html has no module entry script');
  let deferred = html.replace(
    entry[0],
    `<meta name="app-entry" id="app-entry" content="${entry[1]}" />` +
      (stages.length > 0 ? `\n    <meta name="app-stages" id="app-stages" content="${stages.join(' ')}" />` : ''),
  );
  for (const stage of stages) {
    const preload = new RegExp(`\\s*<link rel="modulepreload" crossorigin href="${regExpLiteral(stage)}">`);
    if (!preload.test(deferred)) throw new Error(`index.html does not preload the entry's chunk ${stage}`);
    deferred = deferred.replace(preload, '');
  }
  return deferred;
}

/**
 * The entry's own static imports of at least STAGE_MIN_BYTES, each after the chunks it imports: imported in this
 * order, each evaluates only its own modules.
 */
export function entryStages(
  chunks: ReadonlyArray<Pick<BuiltChunk, 'fileName' | 'isEntry' | 'imports' | 'code'>>,
): string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) return [];
  const ordered: string[] = [];
  // Marked before its imports are visited: chunks that import each other in a circle (which chunk-cycles reports)
  // would otherwise recurse until the stack runs out.
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
    ordered.push(file);
  };
  for (const file of entry.imports) visit(file);
  return ordered.filter(
    (file) => entry.imports.includes(file) && (byFile.get(file)?.code.length ?? 0) >= STAGE_MIN_BYTES,
  );
}

/**
 * Names each page's code in index.html (a JSON data block, which the CSP does not treat as a script), so that
 * public/route-preload.js can start downloading the page being opened while the entry downloads. Without it a
 * page's chunks (and its loader's, which makes the first request) are only asked for once the entry has run and
 * the router has matched: a second round of downloads after the first, on a cold load.
 */
export function routePreloads(): Plugin {
  let base = '/';
  return {
    name: 'route-preloads',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return;
        const chunks = Object.values(context.bundle).filter(
          (output): output is BuiltChunk & typeof output => output.type === 'chunk',
        );
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (start: string[], into = new Set<string>()) => {
          for (const file of start) {
            if (into.has(file)) continue;
            into.add(file);
            closure(byFile.get(file)?.imports ?? [], into);
          }
          return into;
        };
        // The entry and its static imports already have modulepreload links from Vite.
        const initial = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
        const routeChunks = new Map<string, string[]>();
        for (const chunk of chunks) {
          const route = chunk.facadeModuleId?.match(ROUTE_CHUNK)?.[1]?.split(path.sep).join('/');
          if (route) routeChunks.set(route, [...(routeChunks.get(route) ?? []), chunk.fileName]);
        }
        const table: [string, string[]][] = [];
        for (const route of routeChunks.keys()) {
          // The route's own chunks and those of the layouts around it (`_app` for `_app/...`).
          const parts = route.split('/');
          const chain = parts
            .map((_, index) => parts.slice(0, index + 1).join('/'))
            .filter((id) => routeChunks.has(id));
          const files = closure(chain.flatMap((id) => routeChunks.get(id) ?? []));
          const needed = [...files].filter((file) => !initial.has(file) && file.endsWith('.js')).sort();
          // A pathless layout (`_app`) or the root is no page of its own: its pages list its chunks.
          const layout = parts.at(-1)?.startsWith('_') ?? true;
          if (needed.length > 0 && !layout) table.push([routePattern(route), needed.map((file) => base + file)]);
        }
        // Right before the script that reads it (and after <meta charset>, which must come first).
        if (!html.includes(READER)) throw new Error(`index.html has no ${READER}`);
        const data = JSON.stringify(table).replace(/</g, '\\u003c');
        return deferEntry(
          html.replace(READER, `<script type="application/json" id="route-chunks">${data}</script>\n    ${READER}`),
          entryStages(chunks).map((file) => base + file),
        );
      },
    },
  };
}
