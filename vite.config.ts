import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          // Floating UI (tooltips, menus, selects) would otherwise share a chunk with small modules the entry needs,
          // pulling ~17 KB gzip into the sign-in page that shows no popover.
          groups: [
            // Every page loads the entry's static imports, yet left alone they are cut into ~25 chunks shared with
            // the lazy routes. Each file is compressed on its own, so one file is ~10 KB gzip smaller than 25.
            { name: 'initial', tags: ['$initial'], priority: 1 },
            { name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'service',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dashboard',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/web/test/setup.ts'],
        },
      },
    ],
  },
});
