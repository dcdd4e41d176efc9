import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DEVICE_APP_PATH } from '../../../shared/contract/index.ts';
import { isApiPath } from '../../http/api-path.ts';
import { sendProblem } from '../../http/problem-handler.ts';

const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';

/**
 * Everything outside /api is the dashboard: built files, and index.html for any other GET
 * so deep links work (history fallback). Unknown /api routes are problems, never HTML.
 */
export async function dashboardRoutes(app: FastifyInstance, configuredRoot: string | null): Promise<void> {
  // An admin tool has nothing to index; answered by the service itself, with or without a built dashboard.
  app.get('/robots.txt', (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=86400').send(ROBOTS_TXT),
  );
  const indexFile = configuredRoot ? path.join(configuredRoot, 'index.html') : null;
  const hasDashboard = indexFile !== null && fs.existsSync(indexFile);
  // The real folder, read once: `dist` is a link that a later build swaps to a new folder (scripts/build.mjs), and
  // this service keeps serving the build it started with, whose index.html names its own asset files.
  const webRoot = hasDashboard && configuredRoot ? fs.realpathSync(configuredRoot) : null;
  if (hasDashboard && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      index: false,
      // The build writes .br and .gz copies (scripts/compress-assets.mjs); browsers that accept them get those.
      preCompressed: true,
      // A build made with source maps must not publish the sources with it.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders: (res, filePath) => {
        // Vite fingerprints assets, so they never change under the same name.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
    // With index: false the static handler answers a directory, `/` included, with 403; the root is the app.
    app.get('/', (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false }),
    );
    // A person's page carries their user name, DOMAIN%5Cuser: the static file handler refuses a path with a backslash
    // (403) rather than falling through to the app, so the app's pages under /people are the app.
    app.get('/people/*', (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false }),
    );
    // The device app is a page of its own (device.html, its own small build): its HTML links the web app manifest,
    // so a phone can install it before any script runs.
    if (fs.existsSync(path.join(webRoot, 'device.html'))) {
      app.get(DEVICE_APP_PATH, (_request, reply) =>
        reply.header('Cache-Control', 'no-cache').sendFile('device.html', { cacheControl: false }),
      );
    }
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!isApiPath(request.url) && wantsPage && hasDashboard) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    const what = isApiPath(request.url) ? 'endpoint' : 'page';
    const shownUrl = request.url.split('?')[0]?.slice(0, 200) ?? '';
    return sendProblem(reply, 404, 'not-found', 'Not found', `There is no ${what} ${request.method} ${shownUrl}.`);
  });
}
