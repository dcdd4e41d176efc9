import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deferDefaultCssVariables, MODULE } from './lazy-mantine-defaults.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const file = path.join(
  ROOT,
  'node_modules/@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs',
);

/** The transformed module, written aside with its imports pointing back at Mantine's files. */
async function importDeferred() {
  const folder = pathToFileURL(path.dirname(file)).href;
  const code = deferDefaultCssVariables(fs.readFileSync(file, 'utf8'))
    .replace(/from "(\.\.?\/[^"]+)"/g, (_, specifier: string) => `from "${new URL(specifier, `${folder}/`).href}"`)
    .replace(/^\/\/# sourceMappingURL=.*$/m, '');
  const aside = path.join(fs.mkdtempSync(path.join(tmpdir(), 'mantine-defaults-')), 'remove-default-variables.mjs');
  fs.writeFileSync(aside, code);
  return (await import(/* @vite-ignore */ pathToFileURL(aside).href)) as typeof import('@mantine/core');
}

describe("Mantine's default CSS variables, worked out on first use", () => {
  it('matches the module the build transforms', () => {
    expect(MODULE.test(file)).toBe(true);
  });

  it('no longer works them out as the module loads, and removes the same variables as before', async () => {
    const code = deferDefaultCssVariables(fs.readFileSync(file, 'utf8'));
    expect(code).not.toMatch(/^const defaultCssVariables = /m);
    const original = (await import(pathToFileURL(file).href)) as { removeDefaultVariables: Remove };
    const deferred = (await importDeferred()) as unknown as { removeDefaultVariables: Remove };
    const input = {
      variables: { '--mantine-scale': '1', '--custom': 'x' },
      light: { '--mantine-color-body': '#fff', '--custom-light': 'y' },
      dark: { '--mantine-color-body': '#000', '--custom-dark': 'z' },
    };
    expect(deferred.removeDefaultVariables(input)).toEqual(original.removeDefaultVariables(input));
    expect(deferred.removeDefaultVariables(input).variables).toEqual({ '--custom': 'x' });
  });

  it('stops the build when Mantine changes the module', () => {
    expect(() => deferDefaultCssVariables('export const removeDefaultVariables = () => ({});')).toThrow(
      /Mantine changed remove-default-variables\.mjs/,
    );
  });
});

type Remove = (input: {
  variables: Record<string, string>;
  light: Record<string, string>;
  dark: Record<string, string>;
}) => { variables: Record<string, string>; light: Record<string, string>; dark: Record<string, string> };
