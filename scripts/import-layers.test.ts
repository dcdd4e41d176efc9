import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules live in biome.json; this proves they refuse what they should and only that. Probe files are
// linted in a copy of the configuration, so nothing is written into the repository.
const repo = join(import.meta.dirname, '..');
const biome = join(repo, 'node_modules', '.bin', 'biome');

/** Each probe: a file, what it imports, and which rule (if any) must refuse it. */
const probes: { file: string; imports: string[]; refused: 'noRestrictedImports' | 'noImportCycles' | null }[] = [
  { file: 'src/web/api/probe-server.ts', imports: ['../../server/app.ts'], refused: 'noRestrictedImports' },
  { file: 'src/server/probe-web.ts', imports: ['../web/app.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/server/probe-stream.ts', imports: ['node:stream/web'], refused: null },
  { file: 'src/shared/probe-web.ts', imports: ['../web/app.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/features/a/probe-other.ts', imports: ['../b/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/features/a/probe-route.ts', imports: ['../../routes/__root.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/features/a/probe-fine.ts',
    imports: ['./page.tsx', '../../components/page-header.tsx', '../../api/queries.ts', '../../../shared/index.ts'],
    refused: null,
  },
  { file: 'src/web/components/probe-feature.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/components/probe-router.ts', imports: ['../router.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/components/probe-fine.ts', imports: ['../api/queries.ts', './page-header.tsx'], refused: null },
  { file: 'src/web/lib/probe-up.ts', imports: ['../components/page-header.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/session/probe-up.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/api/probe-fine.ts', imports: ['../session/session-store.ts', '../lib/notify.ts'], refused: null },
  { file: 'src/web/lib/probe-api.ts', imports: ['../api/queries.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-session.ts', imports: ['../session/session-store.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-settings.ts', imports: ['../settings/settings-store.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/lib/probe-fine.ts', imports: ['./notify.ts', '../../shared/index.ts'], refused: null },
  { file: 'src/web/api/probe-wiring.ts', imports: ['../wiring/prefetch.ts'], refused: 'noRestrictedImports' },
  { file: 'src/web/session/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/wiring/probe-up.ts', imports: ['../components/page-header.tsx'], refused: 'noRestrictedImports' },
  { file: 'src/web/wiring/probe-feature.ts', imports: ['../features/a/page.tsx'], refused: 'noRestrictedImports' },
  {
    file: 'src/web/wiring/probe-fine.ts',
    imports: ['../api/queries.ts', '../session/permissions.ts', '../settings/settings-store.ts', '../lib/notify.ts'],
    refused: null,
  },
  { file: 'src/web/components/probe-wiring.ts', imports: ['../wiring/pages.tsx'], refused: null },
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
  for (const { file, imports } of probes) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    const lines = imports.map((from, index) => `import * as m${index} from '${from}';`);
    writeFileSync(
      join(root, file),
      `${lines.join('\n')}\n\nexport const used = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`,
    );
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
  for (const { file, imports, refused } of probes) {
    it(`${file} importing ${imports.join(', ')}: ${refused ? `refused by ${refused}` : 'allowed'}`, () => {
      const rules = findings.get(file) ?? [];
      if (refused) expect(rules).toContain(refused);
      else expect(rules.filter((rule) => rule === 'noRestrictedImports' || rule === 'noImportCycles')).toEqual([]);
    });
  }
});
