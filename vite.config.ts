import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * What the sign-in page shares with the signed-in pages: Mantine's form and layout primitives, React Query's hooks,
 * the brand mark and the settings hooks. Left to automatic chunking these are ~15 chunks of 0.2-3 KB, one per set of
 * pages using them, and each file is gzipped on its own; as one chunk they are ~4 KB gzip smaller. Every page
 * loads the chunk (the signed-in layout needs it too); the few modules in it that a page does not use cost it less
 * than the separate files did.
 */
const SHARED_UI = new RegExp(
  [
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput|ActionIcon|CloseButton|Alert|Title|Group|Paper|ThemeIcon)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/].*[\\/](use-resolved-styles-api|get-sorted-breakpoints|get-base-value|get-breakpoint-value)\.mjs`,
    String.raw`node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-id|use-uncontrolled|utils[\\/]random-id)[\\/]`,
    String.raw`node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]`,
    String.raw`src[\\/]web[\\/](settings[\\/](use-settings|resolve-version)|components[\\/]app-shell[\\/]brand-mark)\.tsx?$`,
  ].join('|'),
);

/**
 * Popovers, tooltips, selects, scroll areas and the scroll lock, with Floating UI under them. Every signed-in page
 * loads them with its layout (header tooltips, navigation scroll area), the sign-in page never does. Automatic
 * chunking cut them into ~12 chunks by which pages use which, ~4 KB gzip more than one chunk; one group also keeps
 * them away from the small modules the entry needs (which once pulled Floating UI into the sign-in page).
 */
const OVERLAYS = new RegExp(
  [
    String.raw`node_modules[\\/](@floating-ui|react-remove-scroll|react-remove-scroll-bar|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Popover|Tooltip|Floating|Combobox|Select|OptionsDropdown|ScrollArea|FocusTrap|Portal|OptionalPortal|Overlay|Checkbox[\\/]CheckIcon)`,
    String.raw`node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/](utils[\\/]Floating[\\/]|components[\\/]Transition[\\/]get-transition-props[\\/]|core[\\/]utils[\\/]find-element-in-shadow-dom[\\/])`,
    String.raw`node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-focus-trap|use-click-outside|use-debounced-callback|use-merged-ref|use-window-event|use-long-press)[\\/]`,
  ].join('|'),
);

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/web/routes',
      generatedRouteTree: './src/web/route-tree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
  ],
  // The manifest lets the bench measure JS per route.
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Source maps would publish the whole source to anyone who opens the dashboard.
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          // Each file is gzipped on its own, so modules that always load together are cheaper as one chunk.
          groups: [
            // Every page loads the entry's static imports, yet left alone they are cut into ~25 chunks shared with
            // the lazy routes. Each file is compressed on its own, so one file is ~10 KB gzip smaller than 25.
            { name: 'initial', tags: ['$initial'], priority: 1 },
            { name: 'shared-ui', test: SHARED_UI, priority: 1 },
            { name: 'overlays', test: OVERLAYS },
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
    projects: [
      {
        extends: true,
        test: {
          name: 'service',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dashboard',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/web/test/setup.ts'],
          // A component test's first render loads Mantine and the app's modules; on a busy two-core machine that
          // alone has taken over 5 s. Assertions wait with waitFor/findBy, never on this limit.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
