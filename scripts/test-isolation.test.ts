import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { testsNeedingOwnModules } from './test-isolation.ts';

const root = mkdtempSync(path.join(tmpdir(), 'test-isolation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('sends the test files that replace, restart or ask for their own modules to the isolated project', () => {
  const files: Record<string, string> = {
    'src/web/a/plain.test.tsx': "it('renders', () => {});\n",
    'src/web/a/mocks.test.tsx': "vi.mock('../api/client.ts');\n",
    'src/web/b/deep/restarts.test.ts': 'beforeEach(() => vi.resetModules());\n',
    'src/web/b/says-so.test.tsx': '// needs-own-modules: a store read from its first import\n',
    'src/web/b/stubs.test.tsx': "vi.stubGlobal('fetch', fetch);\nvi.mocked(fetch);\n",
    'src/web/b/mock.ts': "vi.mock('x');\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  expect(testsNeedingOwnModules(root)).toEqual([
    'src/web/a/mocks.test.tsx',
    'src/web/b/deep/restarts.test.ts',
    'src/web/b/says-so.test.tsx',
  ]);
});
