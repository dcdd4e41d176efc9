import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LAYERS_FILE, importLayerOverrides } from './import-layers.ts';

// The import rules are written once per layer in import-layers.ts, which generates the overrides biome.json extends;
// this proves they refuse what they should and only that. Probe files are linted in a copy of the configuration, so
// nothing is written into the repository.
const repo = join(import.meta.dirname, '..');
const biome = join(repo, 'node_modules', '.bin', 'biome');

/** Each probe: a file, what it imports, and which rule (if any) must refuse it. */
const probes: {
  file: string;
  imports: string[];
  refused: 'noRestrictedImports' | 'noImportCycles' | null;
  /** Written as `import type`: a cycle through types alone is still a cycle. */
  typeOnly?: boolean;
}[] = [
  { file: 'src/web/api/probe-server.ts', imports: ['../../server/app.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/probe-web.ts', imports: ['../web/app.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/server/probe-stream.ts', imports: ['node:stream/web'], refused: null },
  { file: 'src/server/routes/probe-app.ts', imports: ['../app.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/routes/a/probe-stage.ts', imports: ['../../app/routes.ts'], refused: 'noRestrictedImports' },
  {
    file: 'src/server/routes/a/probe-fine.ts',
    imports: ['../../http/endpoint-route.ts', '../../config.ts', '../../domain/a/b.ts', '../../audit/audit-log.ts'],
    refused: null,
  },
  { file: 'src/server/probe-config.ts', imports: ['./routes/a/b.ts'], refused: null },
  { file: 'src/server/config.ts', imports: ['./routes/services.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/http/a/probe-config.ts', imports: ['../../config.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/http/probe-route.ts', imports: ['../routes/services.ts'], refused: 'noRestrictedImports' },
  {
    file: 'src/server/http/probe-fine.ts',
    imports: ['../domain/a/b.ts', '../db/schema.ts', '../lib/clock.ts', './guards/x.ts'],
    refused: null,
  },
  { file: 'src/server/push/probe-http.ts', imports: ['../http/access.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/backup/probe-config.ts', imports: ['../config.ts'], refused: 'noRestrictedImports' },
  {
    file: 'src/server/domain/a/probe-push.ts',
    imports: ['../../push/web-push-sender.ts'],
    refused: 'noRestrictedImports',
  },
  { file: 'src/server/domain/a/probe-http.ts', imports: ['../../http/access.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/domain/a/probe-backup.ts', imports: ['../../backup/x.ts'], refused: 'noRestrictedImports' },
  {
    file: 'src/server/domain/a/probe-fine.ts',
    imports: ['../../db/schema.ts', '../../audit/audit-log.ts', '../../lib/clock.ts', '../b/c.ts'],
    refused: null,
  },
  { file: 'src/server/domain/a/probe.test.ts', imports: ['../../test/harness.ts', '../../app.ts'], refused: null },
  // The domain's areas, in one order (demo → … → accounts → authentication → two-factor → devices → consumer →
  // delivery → identity → core): an area never imports one above it, even from a subfolder.
  {
    file: 'src/server/domain/authentication/probe-accounts.ts',
    imports: ['../accounts/accounts.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/authentication/passkeys/probe-accounts.ts',
    imports: ['../../accounts/accounts.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/identity/probe-authentication.ts',
    imports: ['../authentication/sessions.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/two-factor/probe-authentication.ts',
    imports: ['../authentication/sessions.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/consumer/probe-devices.ts',
    imports: ['../devices/devices.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/core/probe-identity.ts',
    imports: ['../identity/principals.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/identity/probe-http.ts',
    imports: ['../../http/access.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/server/domain/accounts/probe-fine.ts',
    imports: [
      '../authentication/sessions.ts',
      '../devices/pending-enrolments.ts',
      '../identity/principals.ts',
      '../core/change-feed.ts',
      './containment.ts',
    ],
    refused: null,
  },
  {
    file: 'src/server/domain/demo/probe-fine.ts',
    imports: ['../accounts/accounts.ts', '../people/people.ts'],
    refused: null,
  },
  { file: 'src/server/domain/identity/probe.test.ts', imports: ['../accounts/accounts.ts'], refused: null },
  { file: 'src/server/db/probe-domain.ts', imports: ['../domain/core/change-feed.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/audit/probe-http.ts', imports: ['../http/request-log.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/audit/probe-domain.ts', imports: ['../domain/a/b.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/audit/probe-fine.ts', imports: ['../lib/clock.ts', '../db/schema.ts'], refused: null },
  { file: 'src/server/lib/probe-db.ts', imports: ['../db/schema.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/lib/probe-audit.ts', imports: ['../audit/audit-log.ts'], refused: 'noRestrictedImports' },
  {
    file: 'src/server/lib/type-cycle-one.ts',
    imports: ['./type-cycle-two.ts'],
    refused: 'noImportCycles',
    typeOnly: true,
  },
  {
    file: 'src/server/lib/type-cycle-two.ts',
    imports: ['./type-cycle-one.ts'],
    refused: 'noImportCycles',
    typeOnly: true,
  },
  { file: 'src/shared/probe-web.ts', imports: ['../web/app.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/features/a/probe-other.ts', imports: ['../b/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/features/a/s/probe-other.ts', imports: ['../../b/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/features/a/s/t/probe-other.ts', imports: ['../../../b/page.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/features/a/s/probe-fine.ts',
    imports: ['./page.tsx', '../shared.tsx', '../t/page.tsx', '../../../ui/page-header.tsx'],
    refused: null,
  },
  {
    file: 'src/web/features/a/s/t/probe-fine.ts',
    imports: ['../../shared.tsx', '../../u/page.tsx', '../../../../entities/a/b.tsx'],
    refused: null,
  },
  {
    file: 'src/web/features/a/s/probe-route.ts',
    imports: ['../../../routes/__root.tsx'],
    refused: 'noRestrictedImports',
  },
  { file: 'src/web/features/a/probe-route.ts', imports: ['../../routes/__root.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/features/a/probe-fine.ts',
    imports: [
      './page.tsx',
      '../../ui/page-header.tsx',
      '../../entities/request/decision-dialog.tsx',
      '../../shell/app-layout.tsx',
      '../../api/queries/queries.ts',
      '../../../shared/index.ts',
    ],
    refused: null,
  },
  { file: 'src/web/shell/probe-feature.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/shell/probe-fine.ts',
    imports: ['../entities/request/decision-dialog.tsx', '../ui/page-header.tsx', '../api/queries/queries.ts'],
    refused: null,
  },
  {
    file: 'src/web/entities/a/probe-feature.ts',
    imports: ['../../features/a/page.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/entities/a/probe-shell.ts',
    imports: ['../../shell/app-layout.tsx'],
    refused: 'noRestrictedImports',
  },
  { file: 'src/web/entities/a/probe-router.ts', imports: ['../../router.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/entities/a/probe-fine.ts',
    imports: [
      './b.tsx',
      '../b/c.tsx',
      '../../ui/page-header.tsx',
      '../../wiring/pages.tsx',
      '../../api/queries/queries.ts',
    ],
    refused: null,
  },
  { file: 'src/web/ui/a/probe-entity.ts', imports: ['../../entities/a/b.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/ui/probe-shell.ts', imports: ['../shell/app-layout.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/ui/probe-feature.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/ui/probe-router.ts', imports: ['../router.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/ui/probe-fine.ts',
    imports: ['../api/queries/queries.ts', './page-header.tsx', './a/b.tsx'],
    refused: null,
  },
  { file: 'src/web/lib/probe-up.ts', imports: ['../ui/page-header.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/session/probe-up.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/api/probe-fine.ts', imports: ['../session/session-store.ts', '../lib/notify.ts'], refused: null },
  { file: 'src/web/lib/probe-api.ts', imports: ['../api/queries/queries.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-session.ts', imports: ['../session/session-store.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-settings.ts', imports: ['../settings/settings-store.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-fine.ts', imports: ['./notify.ts', '../../shared/index.ts'], refused: null },
  { file: 'src/web/api/probe-wiring.ts', imports: ['../wiring/prefetch.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/session/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/wiring/probe-up.ts', imports: ['../ui/page-header.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/wiring/probe-entity.ts', imports: ['../entities/a/b.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/wiring/probe-feature.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/wiring/probe-fine.ts',
    imports: [
      '../api/queries/queries.ts',
      '../session/permissions.ts',
      '../settings/settings-store.ts',
      '../lib/notify.ts',
    ],
    refused: null,
  },
  { file: 'src/web/ui/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: null },
  // The device app: a wing of its own, apart from the dashboard both ways.
  { file: 'src/web/probe-device.ts', imports: ['./device-app/main.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/features/a/probe-device.ts',
    imports: ['../../device-app/screens/device-app.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/api/probe-device.ts',
    imports: ['../device-app/connection/device-queries.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/lib/probe-device.ts',
    imports: ['../device-app/connection/web-push.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/ui/probe-device.ts',
    imports: ['../device-app/screens/device-shell.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-server.ts',
    imports: ['../../../server/app.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-feature.ts',
    imports: ['../../features/a/page.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-route.ts',
    imports: ['../../routes/__root.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-wiring.ts',
    imports: ['../../wiring/pages.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-session.ts',
    imports: ['../../session/session-store.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-queries.ts',
    imports: ['../../api/queries/queries.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-instance.ts',
    imports: ['../../api/instance.ts'],
    refused: 'noRestrictedImports',
  },
  { file: 'src/web/device-app/screens/probe-main.ts', imports: ['../main.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/device-app/screens/probe-entity.ts',
    imports: ['../../entities/request/decision-dialog.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-shell.ts',
    imports: ['../../shell/app-layout.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/screens/probe-fine.ts',
    imports: [
      './device-shell.tsx',
      '../connection/device-queries.ts',
      '../../ui/inline-error.tsx',
      '../../api/core/client.ts',
      '../../api/core/describe-error.ts',
      '../../lib/announce.ts',
      '../../../shared/contract/index.ts',
    ],
    refused: null,
  },
  { file: 'src/web/device-app/screens/probe.test.tsx', imports: ['../../test/render.tsx'], refused: null },
  {
    file: 'src/web/device-app/probe-fine.tsx',
    imports: ['./screens/device-app.tsx', './connection/web-push.ts', '../theme.ts', '../query-client.ts'],
    refused: null,
  },
  {
    file: 'src/web/device-app/connection/probe-screen.ts',
    imports: ['../screens/device-app.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/connection/probe-ui.ts',
    imports: ['../../ui/inline-error.tsx'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/connection/probe-session.ts',
    imports: ['../../session/session-store.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/connection/probe-fine.ts',
    imports: [
      './device-credential.ts',
      '../../api/core/client.ts',
      '../../api/core/api-error.ts',
      '../../api/core/event-stream-reader.ts',
      '../../api/core/request-headers.ts',
      '../../lib/stores/persistent-store.ts',
    ],
    refused: null,
  },
  {
    file: 'src/web/device-app/screens/probe-worker.ts',
    imports: ['../worker/device-worker.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/worker/probe-app.ts',
    imports: ['../connection/web-push.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/worker/probe-lib.ts',
    imports: ['../../lib/announce.ts'],
    refused: 'noRestrictedImports',
  },
  {
    file: 'src/web/device-app/worker/probe-fine.ts',
    imports: ['./device-worker.ts', '../../../shared/contract/web-push-payload.ts', 'zod/mini'],
    refused: null,
  },
  { file: 'src/web/lib/cycle-one.ts', imports: ['./cycle-two.ts'], refused: 'noImportCycles' },
  { file: 'src/web/lib/cycle-two.ts', imports: ['./cycle-one.ts'], refused: 'noImportCycles' },
];

interface Diagnostic {
  category: string;
  location: { path: string | { file: string } };
}

let root = '';
let findings = new Map<string, string[]>();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'import-layers-'));
  cpSync(join(repo, 'biome.json'), join(root, 'biome.json'));
  cpSync(IMPORT_LAYERS_FILE, join(root, 'scripts', 'import-layers.json'));
  for (const { file, imports, typeOnly } of probes) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    const lines = imports.map((from, index) => `import ${typeOnly ? 'type ' : ''}* as m${index} from '${from}';`);
    const uses = typeOnly
      ? `export type Used = [${imports.map((_, i) => `typeof m${i}`).join(', ')}];`
      : `export const used = [${imports.map((_, i) => `m${i}`).join(', ')}];`;
    writeFileSync(join(root, file), `${lines.join('\n')}\n\n${uses}\n`);
  }
  const result = await promisify(execFile)(biome, ['lint', '--vcs-enabled=false', '--reporter=json', 'src'], {
    cwd: root,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(result.stdout) as { diagnostics: Diagnostic[] };
  findings = new Map();
  for (const { category, location } of report.diagnostics) {
    const path = typeof location.path === 'string' ? location.path : location.path.file;
    findings.set(path, [...(findings.get(path) ?? []), category.replace(/^lint\/\w+\//, '')]);
  }
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('import layers (biome.json)', () => {
  it('extends the overrides import-layers.ts makes (after an edit of its table: npm run lint:layers)', () => {
    expect(JSON.parse(readFileSync(IMPORT_LAYERS_FILE, 'utf8'))).toEqual({ overrides: importLayerOverrides() });
  });

  for (const { file, imports, refused } of probes) {
    it(`${file} importing ${imports.join(', ')}: ${refused ? `refused by ${refused}` : 'allowed'}`, () => {
      const rules = findings.get(file) ?? [];
      if (refused) expect(rules).toContain(refused);
      else expect(rules.filter((rule) => rule === 'noRestrictedImports' || rule === 'noImportCycles')).toEqual([]);
    });
  }
});
