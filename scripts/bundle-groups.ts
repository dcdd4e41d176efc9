import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { regExpLiteral } from './regexp-literal.ts';

/**
 * Our own modules in the manual chunk groups of vite.config.ts, by folder or by file (paths from the repository
 * root; a folder ends in `/`). Listed here rather than as file names inside the config's regular expressions, so that
 * renaming or moving one fails scripts/bundle-groups.test.ts instead of silently changing the bundles.
 */
export const BUNDLE_GROUP_SOURCES = {
  /** What the sign-in page shares with the signed-in pages (see SHARED_UI in vite.config.ts). */
  'shared-ui': [
    'src/web/settings/',
    'src/web/ui/brand-mark.tsx',
    'src/web/ui/brand-mark.module.css',
    'src/web/ui/router-links.tsx',
    'src/web/api/core/describe-error.ts',
    'src/shared/contract/api-prefix.ts',
  ],
  /**
   * What a page's loader needs for its first request: the app's wiring (pages, prefetch, first request), the client
   * and its queries, the permission check. The contract's catalogue is added in vite.config.ts (all of the contract
   * but messages.ts).
   */
  loaders: [
    'src/web/wiring/',
    'src/web/api/instance.ts',
    'src/web/api/core/client.ts',
    'src/web/api/core/request-headers.ts',
    'src/web/api/step-up.ts',
    'src/web/session/person-activity.ts',
    'src/web/api/queries/endpoint-query.ts',
    'src/web/api/live/live-mode.ts',
    'src/web/api/queries/queries.ts',
    'src/web/api/queries/account-queries.ts',
    'src/web/api/queries/people-queries.ts',
    'src/web/api/queries/activity-queries.ts',
    'src/web/session/permissions.ts',
  ],
  /** The small modules every signed-in list page shows around its rows (see SIGNED_IN in vite.config.ts). */
  'signed-in': [
    'src/web/ui/page-header.tsx',
    'src/web/ui/lists/list-page.tsx',
    'src/web/ui/overlays/lazy-tooltip.tsx',
    'src/web/ui/states/endpoint-gate.tsx',
    'src/web/ui/states/unavailable-state.tsx',
    'src/web/ui/states/no-permission-state.tsx',
    'src/web/ui/states/message-state.tsx',
    'src/web/ui/states/error-state.tsx',
    'src/web/ui/status-badge.tsx',
    'src/web/ui/status-badge.module.css',
    'src/web/ui/lists/row-link.tsx',
    'src/web/ui/text/row-text.module.css',
    'src/web/ui/text/user-text.tsx',
    'src/web/ui/permission-button.tsx',
    'src/web/ui/text/timestamp.tsx',
    'src/web/ui/text/timestamp.module.css',
    'src/web/ui/text/time-tooltip.ts',
    'src/web/lib/use-phone.ts',
    'src/web/lib/loading/load-once.ts',
    'src/web/lib/time/time-format.ts',
    'src/web/lib/time/shared-now.ts',
    'src/web/lib/use-focus-return.ts',
    'src/web/api/use-demo-mode.ts',
    'src/web/api/live/cache-updates.ts',
  ],
} as const satisfies Record<string, readonly string[]>;

export type BundleGroup = keyof typeof BUNDLE_GROUP_SOURCES;

/**
 * A regular expression's source matching a module id in the group's folders and files, with either path separator.
 * Test files are never bundled, so a folder may hold them.
 */
export function groupPattern(group: BundleGroup): string {
  return BUNDLE_GROUP_SOURCES[group]
    .map((source) => {
      const parts = source.replace(/\/$/, '').split('/').map(regExpLiteral).join(String.raw`[\\/]`);
      return source.endsWith('/') ? String.raw`${parts}[\\/]` : `${parts}$`;
    })
    .join('|');
}

/** The signed-in pages' list (PAGES), whose value imports and icons go with the loaders. */
export const PAGES_MODULE = 'src/web/wiring/pages.tsx';

/**
 * The icons the page list imports from Tabler, read from its import statement: the loaders chunk takes them (the
 * navigation and the palette draw them), and a new page's icon joins it without a second list to edit.
 */
export function pageIcons(): string[] {
  const source = readFileSync(join(import.meta.dirname, '..', PAGES_MODULE), 'utf8');
  const names = /import\s*\{([^}]*)\}\s*from\s*'@tabler\/icons-react'/.exec(source)?.[1];
  if (!names) throw new Error(`${PAGES_MODULE} no longer imports its icons from @tabler/icons-react`);
  return names
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}
