import { build, type Plugin } from 'vite';
import { DEVICE_SERVICE_WORKER_URL } from '../src/web/device-app/connection/web-push.ts';

/** The device app's service worker: its TypeScript entry, and where the browser fetches it. */
export const DEVICE_WORKER_ENTRY = 'src/web/device-app/worker/service-worker.ts';
const DEVICE_WORKER_FILE = DEVICE_SERVICE_WORKER_URL.replace(/^\//, '');

/**
 * The worker as one classic script: a service worker registered without `type: 'module'` cannot import chunks, and
 * at the site root (its scope may not be wider than its folder), so it is bundled on its own, not with the app.
 */
export async function bundleDeviceWorker(minify: boolean): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify,
      sourcemap: false,
      lib: { entry: DEVICE_WORKER_ENTRY, formats: ['iife'], name: 'deviceWorker', fileName: () => DEVICE_WORKER_FILE },
      rolldownOptions: {
        // As in vite.config.ts: the contract's schemas are definitions only.
        treeshake: { moduleSideEffects: [{ test: /src[\\/]shared[\\/]contract[\\/]/, sideEffects: false }] },
      },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    for (const item of output.output) if (item.type === 'chunk' && item.isEntry) return item.code;
  }
  throw new Error(`bundling ${DEVICE_WORKER_ENTRY} gave no script`);
}

/** In development (the dashboard's dev server, which serves /device too): /device-sw.js, built on each request. */
export function serveDeviceWorker(): Plugin {
  return {
    name: 'serve-device-worker',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url?.split('?')[0] !== `/${DEVICE_WORKER_FILE}`) return next();
        bundleDeviceWorker(false).then(
          (code) => {
            response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            response.setHeader('Cache-Control', 'no-cache');
            response.end(code);
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}

/** In the device app's build: /device-sw.js beside device.html. */
export function buildDeviceWorker(): Plugin {
  return {
    name: 'build-device-worker',
    apply: 'build',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: DEVICE_WORKER_FILE, source: await bundleDeviceWorker(true) });
    },
  };
}
