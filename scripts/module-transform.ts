import type { Plugin } from 'vite';

/** A Vite plugin that rewrites one dependency's module (matched by its resolved path) before anything else sees it. */
export function moduleTransform(name: string, module: RegExp, rewrite: (code: string) => string): Plugin {
  return {
    name,
    enforce: 'pre',
    transform(code, id) {
      if (!module.test(id.split('?')[0] ?? id)) return null;
      return { code: rewrite(code), map: null };
    },
  };
}
