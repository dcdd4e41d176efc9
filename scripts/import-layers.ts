import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The import rules of the code's layers, each layer written once. Biome reads no code, so `npm run lint:layers`
 * writes them out as Biome overrides into import-layers.json, which biome.json extends; import-layers.test.ts checks
 * that file is what this table makes, and proves each rule with probe files.
 */

interface Pattern {
  group: string[];
  message: string;
}

interface Override {
  includes: string[];
  linter: { rules: { style: { noRestrictedImports: { level: 'error'; options: RuleOptions } } } };
}

interface RuleOptions {
  patterns: Pattern[];
  paths?: Record<string, string>;
}

/** A layer of a stack: the folders and files that make it, and what its rule says to whoever breaks it. */
interface Layer {
  /** How the chain names it. */
  label: string;
  folders: string[];
  files?: string[];
  /** Why it may not import the layers above it; none for the top layer, which may import any below. */
  refusal?: string;
  /** Patterns of its own beyond the layers above it. */
  extra?: Pattern[];
  /**
   * Patterns that depend on how deep a file sits below the layer's folder (1: directly in a subfolder of it), for
   * folders nested up to `deepest`; a relative import names another subfolder by its depth, and Biome reads no paths.
   */
  byDepth?: { deepest: number; patterns: (depth: number) => Pattern[] };
}

const toGroup = ({ folders, files = [] }: Layer) => [
  ...files.map((file) => `**/${file}`),
  ...folders.map((folder) => `**/${folder}/**`),
];

const WEB_NOT_SERVER: Pattern = {
  group: ['**/server', '**/server/**'],
  message: 'src/web must not import src/server; share through src/shared.',
};
const DASHBOARD_NOT_DEVICE_APP: Pattern = {
  group: ['**/device-app', '**/device-app/**'],
  message:
    "The dashboard never imports the device app, a wing of its own: what both use lives in ui/, the API client's core in api/, lib/ or src/shared.",
};
const SERVER_NOT_WEB: Pattern = {
  group: ['../**/web', '../**/web/**'],
  message: 'src/server must not import src/web; share through src/shared.',
};
const NOT_TESTS = ['!**/*.test.ts'];

/** The dashboard, top to bottom. */
const DASHBOARD: Layer[] = [
  { label: 'routes', folders: ['routes'], files: ['router.tsx', 'app.tsx', 'main.tsx'] },
  {
    label: 'features',
    folders: ['features'],
    refusal: 'a feature never imports a route or the app.',
    // A feature's screens may sit in subfolders (features/<f>/<screen>/…), each importing its own feature freely.
    byDepth: {
      deepest: 3,
      patterns: (depth) => [
        {
          group: [`${'../'.repeat(depth)}*/**`, `!${'../'.repeat(depth + 1)}**`],
          message:
            'A feature never imports another feature: move what both need to shell/, entities/, ui/, wiring/, api/, session/ or lib/.',
        },
      ],
    },
  },
  {
    label: 'shell',
    folders: ['shell'],
    refusal:
      'the signed-in frame (layout, header, navigation, user menu, palette) never imports a feature, a route or the app.',
  },
  {
    label: 'entities',
    folders: ['entities'],
    refusal:
      "the domain's widgets (a request, a decision, a device, a person, a push user) never import the frame, a feature, a route or the app.",
  },
  {
    label: 'ui',
    folders: ['ui'],
    refusal:
      'ui/ holds generic parts that know no domain (states, lists, timestamps, overlays): it never imports an entity, the frame, a feature, a route or the app.',
  },
  {
    label: 'wiring',
    folders: ['wiring'],
    refusal:
      "the app's wiring (pages, loaders) never imports the ui, an entity, the frame, a feature, a route or the app.",
  },
  {
    label: 'api/session/settings',
    folders: ['api', 'session', 'settings'],
    refusal: 'api, session and settings never import the layers above them.',
  },
  { label: 'lib', folders: ['lib'], refusal: 'lib/ holds pure utilities and imports nothing of the app.' },
];

const DOMAIN: Layer = {
  label: 'domain',
  folders: ['domain'],
  refusal:
    'the domain never imports HTTP, routes, push, backup or the configuration: they call it, and it is handed what it needs (a sender, a policy).',
};

/** The service, top to bottom (a file's tests may import any layer: they build the service to test it). */
const SERVICE: Layer[] = [
  { label: 'server.ts, app.ts, app/', folders: ['app'], files: ['app.ts', 'server.ts'] },
  {
    label: 'routes',
    folders: ['routes'],
    refusal: 'routes never import the composition root that registers them.',
  },
  {
    label: 'config',
    folders: [],
    files: ['config.ts', 'transport-config.ts'],
    refusal: 'configuration is read from the environment once; it never imports what is configured by it.',
  },
  {
    label: 'http',
    folders: ['http'],
    refusal:
      'the HTTP pipeline never imports a route or the configuration: the composition root hands it the values it needs.',
  },
  {
    label: 'push, backup',
    folders: ['push', 'backup'],
    refusal: 'push and backup never import HTTP, routes or the configuration.',
  },
  DOMAIN,
  {
    label: 'audit, db',
    folders: ['audit', 'db'],
    refusal: 'audit and db sit under the domain: they never import it or anything above it.',
  },
  { label: 'lib', folders: ['lib'], refusal: 'lib/ holds pure utilities and imports nothing of the server.' },
];

/**
 * The domain's areas, top to bottom: an area may import the areas below it, never one above. The identity half runs
 * accounts (administration) → authentication (first factor, ticket, second factor, session) → … → identity (who a
 * person is and their sessions' end), under the product's areas; core (the change feed) is beneath them all.
 */
const DOMAIN_AREAS: Layer[] = [
  { label: 'demo', folders: ['demo'] },
  { label: 'setup', folders: ['setup'], refusal: 'the first-run checklist reads the areas below it, never the demo.' },
  { label: 'people', folders: ['people'], refusal: 'people never import the areas above them (setup, demo).' },
  { label: 'alerts', folders: ['alerts'], refusal: 'alerts never import the areas above them (people, setup, demo).' },
  { label: 'activity', folders: ['activity'], refusal: 'the Activity page never imports alerts or the areas above.' },
  {
    label: 'accounts',
    folders: ['accounts'],
    refusal:
      "accounts' administration never imports the pages' areas above it (activity, alerts, people, setup, demo).",
  },
  {
    label: 'authentication',
    folders: ['authentication'],
    refusal:
      'authentication (sign-in, sessions, sign-in methods) never imports accounts: what both need lives in identity/, or is handed in.',
  },
  {
    label: 'two-factor',
    folders: ['two-factor'],
    refusal: 'two-factor codes never import authentication or accounts: they are handed what they need.',
  },
  {
    label: 'devices',
    folders: ['devices'],
    refusal: 'devices never import two-factor codes, authentication or accounts.',
  },
  {
    label: 'consumer',
    folders: ['consumer'],
    refusal: "the consumer's push users and requests never import devices or the areas above them.",
  },
  {
    label: 'delivery',
    folders: ['delivery'],
    refusal:
      "what reaches a person's devices (the push port, notices, credentials) never imports the areas that use it.",
  },
  {
    label: 'identity',
    folders: ['identity'],
    refusal: 'identity (principals, passwords, account history, session revocation) imports no other area but core.',
  },
  {
    label: 'core',
    folders: ['core'],
    refusal: 'core (the change feed) imports no area: every area writes through it.',
  },
];

/** The device app's refusals: it is a wing of the web beside the dashboard, sharing only the lower layers. */
const DEVICE_APP_NOT_DASHBOARD: Pattern = {
  group: [
    '**/features/**',
    '**/routes/**',
    '**/shell/**',
    '**/entities/**',
    '**/wiring/**',
    '**/session/**',
    '**/settings/**',
    '**/router.tsx',
    '**/app.tsx',
    '**/main.tsx',
  ],
  message:
    "The device app is a wing of its own (main.tsx → screens → connection → the web's ui, API core and lib): it never imports the dashboard's features, routes, frame, entities, wiring, session, settings or app.",
};
const DEVICE_APP_API_CORE: Pattern = {
  group: ['**/api/**', '!**/api/core/**'],
  message:
    "The device app uses the API client's core (api/core/: client, api-error, describe-error, event-stream-reader, request-headers), never the dashboard's queries, mutations or its signed-in client.",
};
const DEVICE_APP_NOT_WORKER: Pattern = {
  group: ['**/worker', '**/worker/**'],
  message:
    "The device app's service worker is a script of its own, built apart into /device-sw.js: the app never imports it.",
};

const override = (includes: string[], patterns: Pattern[], paths?: Record<string, string>): Override => ({
  includes,
  linter: {
    rules: { style: { noRestrictedImports: { level: 'error', options: paths ? { patterns, paths } : { patterns } } } },
  },
});

/** A layer's refusal of the layers above it, with the stack's chain in the message. */
function refusalOf(stack: Layer[], layer: Layer, kind: string): Pattern {
  const chain = `${kind} layers run ${stack.map(({ label }) => label).join(' → ')}`;
  return { group: stack.slice(0, stack.indexOf(layer)).flatMap(toGroup), message: `${chain}: ${layer.refusal}` };
}

/** One override per layer below a stack's top: the layers above it refused, with the stack's chain in the message. */
function stackOverrides(
  stack: Layer[],
  { root, kind, always, excludes = [] }: { root: string; kind: string; always: Pattern[]; excludes?: string[] },
): Override[] {
  return stack.flatMap((layer) => {
    if (!layer.refusal) return [];
    const refusal = refusalOf(stack, layer, kind);
    const includes = [
      ...layer.folders.map((folder) => `${root}/${folder}/**`),
      ...(layer.files ?? []).map((file) => `${root}/${file}`),
      ...excludes,
    ];
    const { deepest = 0, patterns = () => [] } = layer.byDepth ?? {};
    // Deeper files come later: Biome applies the last override a file matches.
    const deeper = Array.from({ length: Math.max(deepest - 1, 0) }, (_, index) => index + 2).map((depth) =>
      override(
        [...layer.folders.map((folder) => `${root}/${folder}/${'*/'.repeat(depth)}*`), ...excludes],
        [...always, ...(layer.extra ?? []), ...patterns(depth), refusal],
      ),
    );
    return [override(includes, [...always, ...(layer.extra ?? []), ...patterns(1), refusal]), ...deeper];
  });
}

/** The overrides biome.json extends, in the order Biome applies them (a later match replaces an earlier one). */
export function importLayerOverrides(): Override[] {
  const dashboard = [WEB_NOT_SERVER, DASHBOARD_NOT_DEVICE_APP];
  const deviceApp = [WEB_NOT_SERVER, DEVICE_APP_NOT_DASHBOARD, DEVICE_APP_API_CORE];
  return [
    override(['src/web/**'], dashboard),
    ...stackOverrides(DASHBOARD, { root: 'src/web', kind: 'Web', always: dashboard }),
    override(['src/web/device-app/**'], [...deviceApp, DEVICE_APP_NOT_WORKER]),
    override(
      ['src/web/device-app/connection/**'],
      [
        ...deviceApp,
        {
          group: ['**/screens/**', '**/ui/**'],
          message:
            "The device app runs main.tsx → screens → connection: its connection (client, credential, queries, push subscription) never imports a screen or the web's ui.",
        },
        DEVICE_APP_NOT_WORKER,
      ],
    ),
    override(
      ['src/web/device-app/worker/**'],
      [
        {
          group: ['../**', '!../../../shared', '!../../../shared/**'],
          message:
            "The device app's service worker runs without a page: it imports only src/shared (the push payload's schema) and its own folder.",
        },
      ],
    ),
    override(['src/server/**'], [SERVER_NOT_WEB]),
    ...stackOverrides(SERVICE, { root: 'src/server', kind: 'Server', always: [SERVER_NOT_WEB], excludes: NOT_TESTS }),
    // Each domain area's override replaces the domain's, so it repeats the domain's own refusal.
    ...stackOverrides(DOMAIN_AREAS, {
      root: 'src/server/domain',
      kind: 'Domain',
      always: [SERVER_NOT_WEB, refusalOf(SERVICE, DOMAIN, 'Server')],
      excludes: NOT_TESTS,
    }),
    override(
      ['src/shared/**'],
      [
        {
          group: ['**/web', '**/web/**', '**/server', '**/server/**'],
          message: 'src/shared stands alone: it must not import src/web or src/server.',
        },
      ],
      { react: 'src/shared is isomorphic: no React.', fastify: 'src/shared is isomorphic: no Fastify.' },
    ),
  ];
}

export const IMPORT_LAYERS_FILE = join(import.meta.dirname, 'import-layers.json');

if (process.argv[1] === import.meta.filename) {
  writeFileSync(IMPORT_LAYERS_FILE, `${JSON.stringify({ overrides: importLayerOverrides() }, null, 2)}\n`);
}
