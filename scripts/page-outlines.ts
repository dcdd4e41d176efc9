import path from 'node:path';
import { type Plugin, runnerImport } from 'vite';
import type { PageOutline, renderPageOutlines } from './page-outlines.render.tsx';

/** Where index.html's outline of the signed-in layout leaves room for the page. */
const MAIN = '<div class="boot-main"></div>';
/** public/boot-screen.js reads the table of outlines, so it must come before that script. */
const BOOT_SCRIPT = '<script src="/boot-screen.js"></script>';

/**
 * Puts each page's outline into index.html's signed-in layout, hidden; public/boot-screen.js marks the opened page on
 * <html> (from the table this adds) and the added rules show only its outline. The theme's variables follow Mantine's
 * stylesheet (whose defaults they override, as the app's provider does), so the outlines are drawn in the app's
 * colours and fonts before the app's code has run.
 */
export function insertOutlines(html: string, themeStyle: string, outlines: PageOutline[]): string {
  if (!html.includes(MAIN)) throw new Error(`index.html has no ${MAIN}`);
  if (!html.includes(BOOT_SCRIPT)) throw new Error(`index.html has no ${BOOT_SCRIPT}`);
  if (!html.includes('</head>')) throw new Error('index.html has no </head>');
  const table = JSON.stringify(outlines.map((outline) => [outline.pattern, outline.key]));
  const rules = outlines
    .map((outline) => `html[data-boot-page="${outline.key}"] .boot-page[data-page="${outline.key}"]{display:block}`)
    .join('');
  const pages = outlines
    .map((outline) => `<div class="boot-page" data-page="${outline.key}">${outline.html}</div>`)
    .join('');
  // Replaced by functions: a `$` in the rendered text must stay text, not become a replacement pattern.
  return html
    .replace(BOOT_SCRIPT, () => `<script type="application/json" id="page-outlines">${table}</script>${BOOT_SCRIPT}`)
    .replace(MAIN, () => `<div class="boot-main"><div class="boot-content">${pages}</div></div>`)
    .replace('</head>', () => `${themeStyle}<style>${rules}</style></head>`);
}

/**
 * Renders the outlines at build time with Vite's module runner (the components are TSX importing the app's modules)
 * and writes them into index.html. On a phone the page's heading and its description, the largest text of most
 * pages, are then painted from the HTML instead of after the app's code, its page chunks and its first request.
 */
export function pageOutlines(): Plugin {
  let root = process.cwd();
  return {
    name: 'page-outlines',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // After Vite has added the stylesheet the theme's variables must follow.
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const { module } = await runnerImport<{ renderPageOutlines: typeof renderPageOutlines }>(
          path.join(import.meta.dirname, 'page-outlines.render.tsx'),
          { configFile: false, root, logLevel: 'error' },
        );
        const { themeStyle, outlines } = module.renderPageOutlines();
        return insertOutlines(html, themeStyle, outlines);
      },
    },
  };
}
