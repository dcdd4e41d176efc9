import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which dashboard test files need modules of their own. The dashboard's tests share one module registry per worker
 * (a fifth of the time: Mantine and the app are imported once, not once per file), which a file cannot share when it
 * replaces a module (`vi.mock`, `vi.doMock`) or starts one from scratch (`vi.resetModules`), or when it says so
 * itself with a `needs-own-modules:` comment giving why (a module whose state it tests from its first import).
 */
const OWN_MODULES = /\bvi\.(mock|doMock|resetModules)\(|needs-own-modules:/;

export function testsNeedingOwnModules(root: string, folder = 'src/web'): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => OWN_MODULES.test(readFileSync(path.join(root, file), 'utf8')))
    .sort();
}
