import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Our own modules in the manual chunk groups of vite.config.ts, by folder or by file (paths from the repository
 * root; a folder ends in `/`). Listed here rather than as file names inside the config's regular expressions, so that
 * renaming or moving one fails scripts/bundle-groups.test.ts instead of silently changing the bundles.
 */
export const BUNDLE_GROUP_SOURCES = {
  /** What the sign-in page shares with the signed-in pages (see SHARED_UI in vite.config.ts). */
  'shared-ui': [
    'src/web/settings/',
    'src/web/components/app-shell/brand-mark.tsx',
    'src/web/components/app-shell/brand-mark.module.css',
    'src/web/components/router-links.tsx',
    'src/web/api/describe-error.ts',
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
    'src/web/api/client.ts',
    'src/web/api/request-headers.ts',
    'src/web/api/step-up.ts',
    'src/web/session/person-activity.ts',
    'src/web/api/endpoint-query.ts',
    'src/web/api/live-mode.ts',
    'src/web/api/queries.ts',
    'src/web/api/account-queries.ts',
    'src/web/api/people-queries.ts',
    'src/web/api/activity-queries.ts',
    'src/web/session/permissions.ts',
  ],
  /** The small modules every signed-in list page shows around its rows (see SIGNED_IN in vite.config.ts). */
  'signed-in': [
    'src/web/components/page-header.tsx',
    'src/web/components/list-page.tsx',
    'src/web/components/lazy-tooltip.tsx',
    'src/web/components/endpoint-gate.tsx',
    'src/web/components/unavailable-state.tsx',
    'src/web/components/no-permission-state.tsx',
    'src/web/components/message-state.tsx',
    'src/web/components/error-state.tsx',
    'src/web/components/status-badge.tsx',
    'src/web/components/status-badge.module.css',
    'src/web/components/row-link.tsx',
    'src/web/components/row-text.module.css',
    'src/web/components/user-text.tsx',
    'src/web/components/permission-button.tsx',
    'src/web/components/timestamp.tsx',
    'src/web/components/timestamp.module.css',
    'src/web/components/time-tooltip.ts',
    'src/web/lib/use-phone.ts',
    'src/web/lib/load-once.ts',
    'src/web/lib/time-format.ts',
    'src/web/lib/shared-now.ts',
    'src/web/lib/use-focus-return.ts',
    'src/web/api/use-demo-mode.ts',
    'src/web/api/cache-updates.ts',
  ],
} as const satisfies Record<string, readonly string[]>;

export type BundleGroup = keyof typeof BUNDLE_GROUP_SOURCES;

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regular expression's source matching a module id in the group's folders and files, with either path separator.
 * Test files are never bundled, so a folder may hold them.
 */
export function groupPattern(group: BundleGroup): string {
  return BUNDLE_GROUP_SOURCES[group]
    .map((source) => {
      const parts = source.replace(/\/$/, '').split('/').map(literal).join(String.raw`[\\/]`);
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
