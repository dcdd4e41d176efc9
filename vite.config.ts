import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { groupPattern, pageIcons } from './scripts/bundle-groups.ts';
import { serveDeviceWorker } from './scripts/device-worker.ts';
import { lazyMantineDefaults } from './scripts/lazy-mantine-defaults.ts';
import { pageOutlines } from './scripts/page-outlines.ts';
import { routePreloads } from './scripts/route-preloads.ts';
import { stableMantineIds } from './scripts/stable-mantine-ids.ts';
import { testsNeedingOwnModules } from './scripts/test-isolation.ts';

/**
 * Our own modules in each group are listed in scripts/bundle-groups.ts (a test checks that each exists).
 *
 * What the sign-in page shares with the signed-in pages: Mantine's form and layout primitives, React Query's hooks,
 * the brand mark, router links, shared icons, error texts and the settings. Left to automatic chunking these are ~15
 * chunks of 0.2-3 KB, one per set of pages using them, and each file is gzipped on its own; as one chunk they are
 * ~4 KB gzip smaller. Every page loads the chunk (the signed-in layout needs it too); the few modules in it that a
 * page does not use cost it less than the separate files did.
 */
const SHARED_UI = new RegExp(
  [
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput|ActionIcon|CloseButton|Alert|Title|Group|Paper|ThemeIcon|Divider)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/].*[\\/](use-resolved-styles-api|get-sorted-breakpoints|get-base-value|get-breakpoint-value)\.mjs`,
    String.raw`node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-id|use-uncontrolled|utils[\\/]random-id)[\\/]`,
    String.raw`node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Anchor[\\/]`,
    // Tabler's icon factory, and the icons of the sign-in page that signed-in pages show too (brand, alerts).
    String.raw`node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconShieldCheck|IconAlertTriangle))\.mjs`,
    groupPattern('shared-ui'),
  ].join('|'),
);

/**
 * Popovers, tooltips and the modals' focus trap, with Floating UI under them. The lists and the overview do not wait
 * for them to paint: tooltips are lazy (LazyTooltip), menus and dialogs are imported when first opened; the pages
 * that render a select at once (settings) import them. Automatic chunking cut them
 * into ~12 chunks by which pages use which, ~4 KB gzip more than one chunk.
 */
const OVERLAYS = new RegExp(
  [
    String.raw`node_modules[\\/]@floating-ui[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Popover|Tooltip|FocusTrap|Portal|OptionalPortal|Overlay)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/](utils[\\/]Floating[\\/]|components[\\/]Transition[\\/]get-transition-props[\\/])`,
    String.raw`node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-focus-trap|use-click-outside)[\\/]`,
  ].join('|'),
);

/**
 * What a page's loader needs to make its first request: the API client, the contract's endpoint catalogue and
 * schemas (what the entry and shared-ui groups, of higher priority, have not taken), the queries, the permission
 * check and the page list (with its icons). One chunk that imports no component code, so a loader runs without waiting for
 * overlays or layout code to be evaluated; all of the contract, so that nothing imports this chunk and back.
 */
const LOADERS = new RegExp(
  [
    String.raw`src[\\/]shared[\\/]contract[\\/](?!messages\.ts$)`,
    groupPattern('loaders'),
    // The page list's icons, as src/web/wiring/pages.tsx imports them.
    String.raw`node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/](${pageIcons().join('|')})\.mjs`,
  ].join('|'),
);

/**
 * The small modules every signed-in list page shows around its rows (page header, permission gates, empty and error
 * states, badges, timestamps, the navigation's page list) and the Mantine helpers under them and under the overlays
 * (which import this chunk, never the reverse: two chunks must not import each other, or one runs before the other's
 * imports exist). Automatic chunking cut them into ~40 files of 0.1-1 KB, one per set of pages using them.
 */
const SIGNED_IN = new RegExp(
  [
    groupPattern('signed-in'),
    // The scroll lock: AppShell reads its class names.
    String.raw`node_modules[\\/](react-remove-scroll|react-remove-scroll-bar|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]((Badge|EmptyState|Accordion[\\/]AccordionChevron)[\\/]|Checkbox[\\/]CheckIcon\.mjs)`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/](utils|DirectionProvider|Box[\\/]get-style-object|MantineProvider[\\/]color-functions[\\/]get-auto-contrast-value)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-callback-ref|use-previous|use-focus-return|use-merged-ref|use-debounced-callback|use-window-event|use-long-press|use-timeout|use-mutation-observer|use-mounted|use-shallow-effect|utils)[\\/]`,
    // The icons of the gates, search, states and row actions.
    String.raw`node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(VersionsOff|Lock|Refresh|Search|X|Check|ChevronDown|DeviceMobile|CircleCheck)\.mjs`,
  ].join('|'),
);

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

/**
 * In development, /device is the device app's page (device.html), as the service serves it in production; its
 * build is vite.device.config.ts (with its service worker, which serveDeviceWorker builds here on request).
 */
function deviceAppPage(): Plugin {
  return {
    name: 'device-app-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url && /^\/device\/?(\?|$)/.test(request.url))
          request.url = request.url.replace(/^\/device\/?/, '/device.html');
        next();
      });
    },
  };
}

/** What both dashboard projects share. */
const dashboardTests = {
  environment: 'jsdom' as const,
  include: ['src/web/**/*.test.{ts,tsx}'],
  setupFiles: ['./src/web/test/setup.ts'],
  // A component test's first render loads Mantine and the app's modules, which alone can outlast the default limit on
  // a busy machine. Assertions wait with waitFor/findBy, never on this limit.
  testTimeout: 15_000,
};
const OWN_MODULES = testsNeedingOwnModules(import.meta.dirname);

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/web/routes',
      generatedRouteTree: './src/web/route-tree.gen.ts',
      autoCodeSplitting: true,
      codeSplittingOptions: {
        // Loaders are split too: they bring the API client and the interface catalogue (every endpoint's schemas),
        // which the sign-in page never needs. A loader's chunk loads beside its page's (and is preloaded with them,
        // see route-preloads), so the first request does not wait for the page's code. A page's pending view goes
        // with the page: left in the route file, it brought the whole page into every page's entry.
        defaultBehavior: [['loader'], ['component', 'pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    lazyMantineDefaults(),
    stableMantineIds(),
    routePreloads(),
    pageOutlines(),
    deviceAppPage(),
    serveDeviceWorker(),
  ],
  // The manifest lets the bench measure JS per route.
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Source maps would publish the whole source to anyone who opens the dashboard.
    sourcemap: false,
    // One stylesheet, loaded with the page: the few rules of the app's own CSS modules would otherwise be separate
    // files, each fetched only when its page's code is imported (a round trip on the first load's critical path).
    cssCodeSplit: false,
    manifest: true,
    rolldownOptions: {
      // The interface contract is definitions only (zod schemas, the endpoint catalogue), but its calls to z.object()
      // look like side effects to the bundler: without this, importing one constant from it keeps every schema.
      // messages.ts is the exception: registering the messages is all it does (first matching rule wins).
      treeshake: {
        moduleSideEffects: [
          { test: /src[\\/]shared[\\/]contract[\\/]messages\.ts$/, sideEffects: true },
          { test: /src[\\/]shared[\\/]contract[\\/]/, sideEffects: false },
        ],
      },
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          // Each file is gzipped on its own, so modules that always load together are cheaper as one chunk.
          groups: [
            // Every page loads the entry's static imports, yet left alone they are cut into ~25 chunks shared with
            // the lazy routes. Each file is compressed on its own, so one file is ~10 KB gzip smaller than 25.
            // React DOM (with React and its scheduler, which it imports) in a chunk of its own, which
            // public/route-preload.js imports a task before the entry: evaluating the entry's code was one task of
            // 40-90 ms on a desktop CPU, the longest of a page's load (see deferEntry in scripts/route-preloads.ts).
            {
              name: 'react-dom',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|src[\\/]web[\\/]react-stage\.ts$/,
              priority: 2,
            },
            { name: 'initial', tags: ['$initial'], priority: 1 },
            { name: 'shared-ui', test: SHARED_UI, priority: 1 },
            { name: 'overlays', test: OVERLAYS },
            { name: 'signed-in', test: SIGNED_IN },
            // The endpoint catalogue (with every request and answer schema) is for calls, never for painting: kept
            // out of the small modules the sign-in page imports from the same contract barrel.
            { name: 'loaders', test: LOADERS },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      // The Consumer interface at the site root, as the service serves it (SPEC §3).
      '^/[Cc]onsumer([Aa]uthentication)?(/|$)': { target: apiTarget, changeOrigin: false },
    },
  },
  test: {
    // Vitest's default leaves a core free (one worker on two cores); the service tests spend much of their time waiting
    // on timers, sockets and child processes, so a worker per core finishes sooner.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'service',
          environment: 'node',
          // The service keeps no state in its modules (each test builds its own app, database and registries), so a
          // worker imports the service once for all its files instead of once per file: a tenth of the import time.
          isolate: false,
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          // The directory's tests need the OpenLDAP server `npm run test:ldap` starts for them.
          exclude: ['src/server/**/*.ldap.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          ...dashboardTests,
          name: 'dashboard',
          // One module registry per worker, as the service's: the app's modules keep no state a test leaves behind
          // (each test renders its own providers and query client), and the files that replace or restart a module
          // run in the project below.
          isolate: false,
          exclude: OWN_MODULES,
        },
      },
      {
        extends: true,
        test: { ...dashboardTests, name: 'dashboard-own-modules', include: OWN_MODULES },
      },
    ],
  },
});
