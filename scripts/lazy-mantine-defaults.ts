import type { Plugin } from 'vite';
import { moduleTransform } from './module-transform.ts';

/** Mantine's module that compares a theme's CSS variables with its default theme's. */
export const MODULE =
  /@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineCssVariables[\\/]remove-default-variables\.mjs$/;

const EAGER = 'const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);';
const LAZY = `let defaultCssVariablesBuilt;
const defaultCssVariablesOf = () => (defaultCssVariablesBuilt ??= defaultCssVariablesResolver(DEFAULT_THEME));`;

/**
 * Mantine works out its default theme's CSS variables as that module loads, for a comparison made only when the
 * provider writes the variables at run time, which a build's pages never do (their index.html carries them: see
 * app.tsx). It was 5-12 ms of the dashboard's start on a desktop CPU, four times that on a phone, in the task that
 * evaluates the entry. This works them out on first use instead. Should Mantine change the module, the build stops
 * here rather than shipping it unchanged unnoticed.
 */
export function deferDefaultCssVariables(code: string): string {
  if (!code.includes(EAGER)) {
    throw new Error('lazy-mantine-defaults: Mantine changed remove-default-variables.mjs; look at it again');
  }
  const uses = code.split('defaultCssVariables.').length - 1;
  if (uses === 0) throw new Error('lazy-mantine-defaults: remove-default-variables.mjs no longer reads the defaults');
  return code.replace(EAGER, LAZY).replaceAll('defaultCssVariables.', 'defaultCssVariablesOf().');
}

export function lazyMantineDefaults(): Plugin {
  return moduleTransform('lazy-mantine-defaults', MODULE, deferDefaultCssVariables);
}
