import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildDeviceWorker } from './scripts/device-worker.ts';
import { lazyMantineDefaults } from './scripts/lazy-mantine-defaults.ts';
import { stableMantineIds } from './scripts/stable-mantine-ids.ts';

/**
 * The device app (/device) is a build of its own: a phone that opens it downloads React, a few Mantine components
 * and the device screens, never the dashboard. One build with two entries would not do: the dashboard's chunk
 * groups (vite.config.ts) gather every entry's initial modules into one chunk, so both pages would load both apps'
 * code. It runs after the dashboard's build, into the same folder (the service serves device.html at /device).
 */
export default defineConfig({
  plugins: [react(), lazyMantineDefaults(), stableMantineIds(), buildDeviceWorker()],
  // public/ (the manifest, icons) is copied once, by the dashboard's build; the service worker is built here.
  publicDir: false,
  build: {
    outDir: 'dist/web',
    emptyOutDir: false,
    // Source maps would publish the whole source to anyone who opens the page.
    sourcemap: false,
    // .vite/manifest.json is the dashboard's (the bench reads it per route); this build does not replace it.
    manifest: false,
    rolldownOptions: {
      input: { device: 'device.html' },
      // As in vite.config.ts: the contract's schemas are definitions only, whatever their z.object() calls look like.
      treeshake: {
        moduleSideEffects: [
          { test: /src[\\/]shared[\\/]contract[\\/]messages\.ts$/, sideEffects: true },
          { test: /src[\\/]shared[\\/]contract[\\/]/, sideEffects: false },
        ],
      },
    },
  },
});
