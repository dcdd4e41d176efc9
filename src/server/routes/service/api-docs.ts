import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../../shared/contract/openapi.ts';
import type { Services } from '../services.ts';

/** Swagger UI's files, served from this origin (no CDN: the CSP allows scripts from 'self' only). */
const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/** The page's own start-up script: a file, not inline, so the CSP needs no 'unsafe-inline' for scripts. */
const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tachyon Consumer API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<main id="api-reference"></main>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

/**
 * SPEC §3 "Running it": the OpenAPI 3.1 document, generated from the contract at start, at /api/openapi.json,
 * and an API reference page rendering it at /api/docs. Neither needs a sign-in.
 */
export function apiDocsRoutes(app: FastifyInstance, { config }: Services): void {
  const document = JSON.stringify(openApiDocument({ version: config.defaultApiVersion, demo: config.demo }));
  app.get('/api/openapi.json', (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(document),
  );
  app.get('/api/docs', (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(PAGE),
  );
  app.get('/api/docs/start.js', (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/javascript; charset=utf-8').send(START),
  );
  const files = new Map<string, Promise<Buffer>>();
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/api/docs/${name}`, async (_request, reply) => {
      // Read on first use: a service whose docs nobody opens never holds Swagger UI's 2 MB.
      let file = files.get(name);
      if (!file) {
        file = fs.readFile(path.join(SWAGGER_UI, name));
        files.set(name, file);
      }
      return reply
        .header('Cache-Control', 'public, max-age=3600')
        .type(type)
        .send(await file);
    });
  }
}
